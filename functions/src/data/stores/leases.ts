import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../client';
import { applied, type TxWrite } from '../client';
import { keys } from '../keys';

const expiry = (now: number, ttlMs: number) => Math.ceil((now + ttlMs) / 1000);

/**
 * One writer per session. A lease is a conditional put that succeeds only when no live lease
 * exists; it carries an expiry (also the TTL attribute) so a crashed runner cannot hold it forever.
 */
export class LeaseStore {
  constructor(private readonly db: Db) {}

  /** The conditional put that takes the lease: alone, or as part of a run's accept write. */
  acquireWrite(
    tenant: string,
    agent: string,
    session: string,
    holder: string,
    ttlMs: number,
    now: number,
  ): TxWrite {
    return {
      Put: {
        TableName: this.db.table,
        Item: { ...keys.lease(tenant, agent, session), holder, expires_at: expiry(now, ttlMs) },
        ConditionExpression: 'attribute_not_exists(pk) OR expires_at < :now OR holder = :h',
        ExpressionAttributeValues: { ':now': Math.floor(now / 1000), ':h': holder },
      },
    };
  }

  acquireLease(tenant: string, agent: string, session: string, holder: string, ttlMs: number, now: number) {
    const { Put } = this.acquireWrite(tenant, agent, session, holder, ttlMs, now);
    return applied(this.db.doc.send(new PutCommand(Put!)));
  }

  renewLease(tenant: string, agent: string, session: string, holder: string, ttlMs: number, now: number) {
    return applied(
      this.db.doc.send(
        new UpdateCommand({
          TableName: this.db.table,
          Key: keys.lease(tenant, agent, session),
          UpdateExpression: 'SET expires_at = :e',
          ConditionExpression: 'holder = :h',
          ExpressionAttributeValues: { ':e': expiry(now, ttlMs), ':h': holder },
        }),
      ),
    );
  }

  /** Only the holder may release; releasing a lease someone else took over is a no-op. */
  async releaseLease(tenant: string, agent: string, session: string, holder: string): Promise<void> {
    await applied(
      this.db.doc.send(
        new DeleteCommand({
          TableName: this.db.table,
          Key: keys.lease(tenant, agent, session),
          ConditionExpression: 'holder = :h',
          ExpressionAttributeValues: { ':h': holder },
        }),
      ),
    );
  }
}
