import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';

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

/**
 * Awaits a conditional update sent with `ReturnValues`: the attributes it returned (with
 * `ALL_NEW`, the item as the write left it), or null when its condition did not hold.
 */
export async function writtenItem(
  write: Promise<{ Attributes?: Record<string, unknown> | undefined }>,
): Promise<Record<string, unknown> | null> {
  try {
    return (await write).Attributes ?? {};
  } catch (e) {
    if (isConditionFailure(e)) return null;
    throw e;
  }
}

/** One write of a transaction: a Put, Update, Delete or ConditionCheck. */
export type TxWrite = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Another transaction touched one of the items at the same moment: retried, it goes through. */
const CONFLICT_RETRIES = 3;

/**
 * Writes every item or none, in one round trip. Null when written; otherwise, per item in the
 * order given, whether its condition failed. A pure conflict with a concurrent transaction (no
 * condition failed) is retried a few times before it is thrown.
 */
export async function writeAll(db: Db, items: TxWrite[]): Promise<boolean[] | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      await db.doc.send(new TransactWriteCommand({ TransactItems: items }));
      return null;
    } catch (e) {
      if (!(e instanceof Error) || e.name !== 'TransactionCanceledException') throw e;
      const reasons = (e as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
      const failed = items.map((_, i) => reasons[i]?.Code === 'ConditionalCheckFailed');
      if (failed.some(Boolean)) return failed;
      if (attempt >= CONFLICT_RETRIES) throw e;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * (attempt + 1)));
    }
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
