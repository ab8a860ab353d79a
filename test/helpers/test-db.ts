import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDb, type Db } from '@reprise/functions/data/client';
import { inject } from 'vitest';
import { ensureTable } from '../../infra/local/src/table-bootstrap';

export interface TestDb extends Db {
  readonly endpoint: string;
  drop(): Promise<void>;
}

/** A fresh table built from the shared definition on the run's DynamoDB Local. */
export async function createTestDb(): Promise<TestDb> {
  const endpoint = inject('dynamoEndpoint');
  const tableName = `test-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const raw = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await ensureTable(raw, tableName);
  const db = createDb({ tableName, region: 'us-east-1', endpoint });
  return {
    ...db,
    endpoint,
    async drop() {
      await raw.send(new DeleteTableCommand({ TableName: tableName })).catch(() => {});
      raw.destroy();
      db.doc.destroy();
    },
  };
}
