import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { EventType, ExecutionEvent } from '../../lib/schemas/executions';
import type { Db } from '../client';
import { keys, pad } from '../keys';
import type { PayloadStore } from '../payloads/payload-store';
import { hydrate, spill } from '../payloads/spill';

const BATCH_LIMIT = 25;
/** Events live 30 days; the execution record keeps the outcome for good. */
const EVENT_TTL_SECONDS = 30 * 24 * 3600;

export interface NewEvent {
  readonly seq: number;
  readonly type: EventType;
  readonly data: Record<string, unknown>;
  readonly created_at: string;
}

/**
 * Events share the execution's partition, so "events after N" is one Query on a sort-key range.
 * An event too large for an item (a huge text delta or tool output) keeps only its type inline;
 * its data lives in the payload store and is read back transparently.
 */
export class EventStore {
  constructor(
    private readonly db: Db,
    private readonly payloads: PayloadStore,
  ) {}

  private async item(tenant: string, executionId: string, e: NewEvent) {
    const prefix = `${tenant}/executions/${executionId}/events/${pad(e.seq)}`;
    const stored = await spill(this.payloads, prefix, { data: e.data });
    return {
      ...keys.event(tenant, executionId, e.seq),
      type: 'event',
      seq: e.seq,
      event_type: e.type,
      ...stored,
      ...(stored.payload_ref_data ? { data: { type: e.data.type } } : {}),
      created_at: e.created_at,
      expires_at: Math.floor(Date.parse(e.created_at) / 1000) + EVENT_TTL_SECONDS,
    };
  }

  async appendEvents(tenant: string, executionId: string, events: readonly NewEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += BATCH_LIMIT) {
      const items = await Promise.all(
        events.slice(i, i + BATCH_LIMIT).map((e) => this.item(tenant, executionId, e)),
      );
      let requests = items.map((Item) => ({ PutRequest: { Item } }));
      // BatchWrite may hand back unprocessed items under throttling; retry them with backoff.
      for (let attempt = 0; requests.length > 0; attempt++) {
        const out = await this.db.doc.send(
          new BatchWriteCommand({ RequestItems: { [this.db.table]: requests } }),
        );
        requests = (out.UnprocessedItems?.[this.db.table] ?? []) as typeof requests;
        if (requests.length > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 25 * 2 ** attempt)));
      }
    }
  }

  async listEventsAfter(
    tenant: string,
    executionId: string,
    after: number,
    limit = 500,
  ): Promise<ExecutionEvent[]> {
    return this.queryEvents(tenant, executionId, after, limit, true);
  }

  /** The newest stored event (one item read backwards), or null when there is none. */
  async lastEvent(tenant: string, executionId: string): Promise<ExecutionEvent | null> {
    return (await this.queryEvents(tenant, executionId, 0, 1, false))[0] ?? null;
  }

  private async queryEvents(
    tenant: string,
    executionId: string,
    after: number,
    limit: number,
    forward: boolean,
  ): Promise<ExecutionEvent[]> {
    const range = keys.eventRange(after);
    const out = await this.db.doc.send(
      new QueryCommand({
        TableName: this.db.table,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': keys.execution(tenant, executionId).pk,
          ':from': range.from,
          ':to': range.to,
        },
        ConsistentRead: true,
        ScanIndexForward: forward,
        Limit: limit,
      }),
    );
    return Promise.all((out.Items ?? []).map((i) => this.toEvent(i)));
  }

  private async toEvent(item: Record<string, unknown>): Promise<ExecutionEvent> {
    const i = await hydrate(this.payloads, item);
    return {
      seq: Number(i.seq),
      type: i.event_type as EventType,
      data: i.data as Record<string, unknown>,
      created_at: String(i.created_at),
    };
  }
}
