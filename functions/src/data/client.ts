import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The table handle every store takes: one document client per process, created at cold start. */
export interface Db {
  readonly doc: DynamoDBDocumentClient;
  readonly table: string;
}

export interface DbOptions {
  readonly tableName: string;
  readonly region: string;
  /** DynamoDB Local's URL; unset in AWS. */
  readonly endpoint?: string | undefined;
}

export function createDb(options: DbOptions): Db {
  const client = new DynamoDBClient({
    region: options.region,
    ...(options.endpoint
      ? { endpoint: options.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  const doc = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  return { doc, table: options.tableName };
}

export const isConditionFailure = (e: unknown): boolean =>
  e instanceof Error &&
  (e.name === 'ConditionalCheckFailedException' || e.name === 'TransactionCanceledException');

/** Awaits a conditional write: true when it applied, false when its condition did not hold. */
export async function applied(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (e) {
    if (isConditionFailure(e)) return false;
    throw e;
  }
}
