import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../client';
import { applied } from '../client';
import { keys } from '../keys';

const WINDOW_SECONDS = 24 * 3600;

/** Idempotency-Key → execution id, per caller, for a day. */
export class IdempotencyStore {
  constructor(private readonly db: Db) {}

  async findExecutionForKey(tenant: string, userId: string, keyHash: string): Promise<string | null> {
    const out = await this.db.doc.send(
      new GetCommand({
        TableName: this.db.table,
        Key: keys.idempotency(tenant, userId, keyHash),
        ConsistentRead: true,
      }),
    );
    return out.Item ? String(out.Item.execution_id) : null;
  }

  /** False when the key was already claimed (a concurrent replay won). */
  async claimKey(tenant: string, userId: string, keyHash: string, executionId: string, nowMs: number) {
    return applied(
      this.db.doc.send(
        new PutCommand({
          TableName: this.db.table,
          Item: {
            ...keys.idempotency(tenant, userId, keyHash),
            execution_id: executionId,
            expires_at: Math.floor(nowMs / 1000) + WINDOW_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }
}
