import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Db, TxWrite } from '../client';
import { keys } from '../keys';

const WINDOW_SECONDS = 24 * 3600;

/** Idempotency-Key → execution id, per caller, for a day. */
export class IdempotencyStore {
  constructor(private readonly db: Db) {}

  /** The execution a key started and the hash of the request that used it first. */
  async findExecutionForKey(
    tenant: string,
    userId: string,
    keyHash: string,
  ): Promise<{ execution_id: string; body_hash: string | null } | null> {
    const out = await this.db.doc.send(
      new GetCommand({
        TableName: this.db.table,
        Key: keys.idempotency(tenant, userId, keyHash),
        ConsistentRead: true,
      }),
    );
    if (!out.Item) return null;
    return {
      execution_id: String(out.Item.execution_id),
      body_hash: typeof out.Item.body_hash === 'string' ? out.Item.body_hash : null,
    };
  }

  /** The conditional put that claims a key for an execution (part of the run's accept write). */
  claimWrite(
    tenant: string,
    userId: string,
    keyHash: string,
    bodyHash: string,
    executionId: string,
    nowMs: number,
  ): TxWrite {
    return {
      Put: {
        TableName: this.db.table,
        Item: {
          ...keys.idempotency(tenant, userId, keyHash),
          execution_id: executionId,
          body_hash: bodyHash,
          expires_at: Math.floor(nowMs / 1000) + WINDOW_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }
}
