import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { NotFoundError } from '../../lib/errors';
import type { Role } from '../../lib/schemas/common';
import type { Db } from '../client';
import { applied, isConditionFailure, recordOf } from '../client';
import { keys } from '../keys';

export interface ScheduleRecord {
  readonly tenant: string;
  readonly id: string;
  readonly agent: string;
  readonly name: string;
  readonly cron: string;
  readonly timezone: string;
  readonly message: string;
  readonly enabled: boolean;
  readonly timeout_seconds: number;
  /** The creator: every run is theirs (accountable owner, may continue it as a chat). */
  readonly owner_user_id: string;
  /** The creator's identity when they created it; runs act as this person. */
  readonly owner_email: string;
  readonly owner_role: Role;
  readonly created_at: string;
  readonly updated_at: string;
}

const toRecord = (item: Record<string, unknown>) => recordOf<ScheduleRecord>(item);

/** A claimed slot is kept a week: long past any retry of the same scheduled time. */
const RUN_CLAIM_TTL_SECONDS = 7 * 24 * 3600;

export class ScheduleStore {
  constructor(private readonly db: Db) {}

  private item(s: ScheduleRecord) {
    return {
      ...keys.schedule(s.tenant, s.id),
      type: 'schedule',
      gsi1pk: keys.schedulesOfAgent(s.tenant, s.agent),
      gsi1sk: s.id,
      ...s,
    };
  }

  async createSchedule(s: ScheduleRecord): Promise<void> {
    await this.db.doc.send(
      new PutCommand({
        TableName: this.db.table,
        Item: this.item(s),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getSchedule(tenant: string, id: string): Promise<ScheduleRecord | null> {
    const out = await this.db.doc.send(
      new GetCommand({ TableName: this.db.table, Key: keys.schedule(tenant, id), ConsistentRead: true }),
    );
    return out.Item ? toRecord(out.Item) : null;
  }

  /** Oldest first (ULID order), every page. */
  async listSchedulesByAgent(tenant: string, agent: string): Promise<ScheduleRecord[]> {
    const items: ScheduleRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.db.doc.send(
        new QueryCommand({
          TableName: this.db.table,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :p',
          ExpressionAttributeValues: { ':p': keys.schedulesOfAgent(tenant, agent) },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(out.Items ?? []).map(toRecord));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }

  /** Replaces the whole schedule; a schedule deleted meanwhile stays deleted (404). */
  async replaceSchedule(s: ScheduleRecord): Promise<void> {
    try {
      await this.db.doc.send(
        new PutCommand({
          TableName: this.db.table,
          Item: this.item(s),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
    } catch (e) {
      if (isConditionFailure(e)) throw new NotFoundError('Schedule');
      throw e;
    }
  }

  async deleteSchedule(tenant: string, id: string): Promise<void> {
    await this.db.doc.send(new DeleteCommand({ TableName: this.db.table, Key: keys.schedule(tenant, id) }));
  }

  /**
   * Claims one (schedule, scheduled time) slot. EventBridge delivers at least once and two local
   * processes may tick together: only the caller that gets `true` may create the execution.
   */
  async claimScheduledRun(tenant: string, scheduleId: string, scheduledAt: string, claimId: string) {
    return applied(
      this.db.doc.send(
        new PutCommand({
          TableName: this.db.table,
          Item: {
            ...keys.scheduleRun(tenant, scheduleId, scheduledAt),
            type: 'schedule_run',
            claim_id: claimId,
            scheduled_at: scheduledAt,
            expires_at: Math.floor(Date.parse(scheduledAt) / 1000) + RUN_CLAIM_TTL_SECONDS,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  /** Links a claimed slot to the execution it produced. */
  async recordScheduledRunExecution(
    tenant: string,
    scheduleId: string,
    scheduledAt: string,
    executionId: string,
  ) {
    await this.db.doc.send(
      new UpdateCommand({
        TableName: this.db.table,
        Key: keys.scheduleRun(tenant, scheduleId, scheduledAt),
        UpdateExpression: 'SET execution_id = :e',
        ExpressionAttributeValues: { ':e': executionId },
      }),
    );
  }

  async getScheduledRunExecution(tenant: string, scheduleId: string, scheduledAt: string) {
    const out = await this.db.doc.send(
      new GetCommand({
        TableName: this.db.table,
        Key: keys.scheduleRun(tenant, scheduleId, scheduledAt),
        ConsistentRead: true,
      }),
    );
    return out.Item ? ((out.Item.execution_id as string | undefined) ?? null) : null;
  }

  /** Gives a slot back after a transient failure, so the platform's retry can claim it again. */
  async releaseScheduledRun(tenant: string, scheduleId: string, scheduledAt: string, claimId: string) {
    await applied(
      this.db.doc.send(
        new DeleteCommand({
          TableName: this.db.table,
          Key: keys.scheduleRun(tenant, scheduleId, scheduledAt),
          ConditionExpression: 'claim_id = :c',
          ExpressionAttributeValues: { ':c': claimId },
        }),
      ),
    );
  }
}
