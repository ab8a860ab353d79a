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

/** Index and bookkeeping attributes every item carries; never part of a domain record. */
const KEY_ATTRIBUTES = new Set([
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  'type',
]);

/** An item as its store's record type: the stored attributes minus the table's keys. */
export const recordOf = <T>(item: Record<string, unknown>): T =>
  Object.fromEntries(Object.entries(item).filter(([k]) => !KEY_ATTRIBUTES.has(k))) as T;
