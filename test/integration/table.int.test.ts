import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '@reprise/functions/data/client';
import { tableDefinition } from '@reprise/functions/table';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../../infra/local/src/table-bootstrap';
import { createTestDb, type TestDb } from '../helpers/test-db';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(() => db.drop());

describe('the table on DynamoDB Local', () => {
  it('is created with every index of the shared definition', async () => {
    const raw = new DynamoDBClient({
      endpoint: db.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    });
    const out = await raw.send(new DescribeTableCommand({ TableName: db.table }));
    raw.destroy();
    const names = (out.Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort();
    expect(names).toEqual(tableDefinition.indexes.map((i) => i.name).sort());
    expect(out.Table?.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
  });

  it('reports an existing table as ready instead of recreating it', async () => {
    const raw = new DynamoDBClient({
      endpoint: db.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
    });
    await expect(ensureTable(raw, db.table)).resolves.toBe('ready');
    raw.destroy();
  });

  it('rejects a conditional put on an existing key', async () => {
    const item = { pk: 'T#acme', sk: 'A#x', name: 'x' };
    const put = () =>
      db.doc.send(
        new PutCommand({ TableName: db.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
      );
    await put();
    const second = await put().catch((e: unknown) => e);
    expect(isConditionFailure(second)).toBe(true);
  });

  it('answers a query on the session-owner index', async () => {
    const gsi3pk = 'T#acme#A#demo#S#abc';
    for (const id of ['01A', '01B']) {
      await db.doc.send(
        new PutCommand({
          TableName: db.table,
          Item: { pk: `T#acme#E#${id}`, sk: 'E', gsi3pk, gsi3sk: `E#${id}`, owner: id },
        }),
      );
    }
    const out = await db.doc.send(
      new QueryCommand({
        TableName: db.table,
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :p',
        ExpressionAttributeValues: { ':p': gsi3pk },
      }),
    );
    expect(out.Items?.map((i) => i.owner)).toEqual(['01A', '01B']);
  });
});
