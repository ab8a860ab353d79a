import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ExecutionSource, ExecutionStatus } from '../../lib/schemas/executions';
import type { Db } from '../client';
import { applied, isConditionFailure, recordOf, type TxWrite, writtenItem } from '../client';
import { decodeCursor, encodeCursor } from '../cursor';
import { keys } from '../keys';
import type { PayloadStore } from '../payloads/payload-store';
import { hydrate, spill, withoutRefs } from '../payloads/spill';
import type { ExecutionRecord, WaitingFor } from './execution-record';

const toRecord = (item: Record<string, unknown>) => recordOf<ExecutionRecord>(item);
const payloadPrefix = (tenant: string, id: string) => `${tenant}/executions/${id}`;

/** Lists show previews only (summaries carry 200 characters), so spilled fields stay unread. */
const listed = (item: Record<string, unknown>) => toRecord(withoutRefs(item));

/** Bounds how many Query rounds one filtered page may take (each reads at most 1 MB). */
const MAX_LIST_ROUNDS = 10;

export interface ExecutionPage {
  readonly items: ExecutionRecord[];
  readonly cursor: string | null;
}

export interface Continuation {
  readonly chat_session_id: string;
  readonly owner_user_id: string;
  readonly created_at: string;
}

export interface ExecutionDetail {
  readonly execution: ExecutionRecord;
  readonly continuations: Continuation[];
}

export interface SessionOwner {
  readonly execution_id: string;
  readonly owner_user_id: string;
}

/** Final fields a run reports; written once, only over a non-terminal status. */
export type ExecutionOutcome = Pick<
  ExecutionRecord,
  | 'status'
  | 'response'
  | 'error'
  | 'cost_usd'
  | 'context_used'
  | 'context_max'
  | 'num_turns'
  | 'tool_calls'
  | 'finished_at'
  | 'duration_ms'
> & { claude_session_id: string | null };

/**
 * Executions, whatever their size: message, options, response and tool calls too large for an
 * item go to the payload store (the item keeps a preview and a pointer) and are read back here.
 */
export class ExecutionStore {
  constructor(
    private readonly db: Db,
    private readonly payloads: PayloadStore,
  ) {}

  private full = async (item: Record<string, unknown>) => toRecord(await hydrate(this.payloads, item));

  private indexKeys(e: Pick<ExecutionRecord, 'tenant' | 'agent' | 'id' | 'status' | 'claude_session_id'>) {
    return {
      gsi1pk: keys.executionsOfAgent(e.tenant, e.agent),
      gsi1sk: e.id,
      gsi2pk: keys.executionsOfAgentByStatus(e.tenant, e.agent, e.status),
      gsi2sk: e.id,
      ...(e.claude_session_id
        ? { gsi3pk: keys.sessionOwners(e.tenant, e.agent, e.claude_session_id), gsi3sk: e.id }
        : {}),
    };
  }

  /** The put that creates a run (fields too large for an item stored aside first). */
  async createWrite(e: ExecutionRecord): Promise<TxWrite> {
    const { message, options, response, tool_calls } = e;
    const large = await spill(this.payloads, payloadPrefix(e.tenant, e.id), {
      message,
      options,
      response,
      tool_calls,
    });
    return {
      Put: {
        TableName: this.db.table,
        Item: { ...keys.execution(e.tenant, e.id), type: 'execution', ...this.indexKeys(e), ...e, ...large },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    };
  }

  async createExecution(e: ExecutionRecord): Promise<void> {
    const { Put } = await this.createWrite(e);
    await this.db.doc.send(new PutCommand(Put!));
  }

  async getExecution(tenant: string, id: string): Promise<ExecutionRecord | null> {
    const out = await this.db.doc.send(
      new GetCommand({ TableName: this.db.table, Key: keys.execution(tenant, id), ConsistentRead: true }),
    );
    return out.Item ? this.full(out.Item) : null;
  }

  /** Several executions by id, in the order asked (missing ones left out). */
  async getExecutions(tenant: string, ids: readonly string[]): Promise<ExecutionRecord[]> {
    const found = new Map<string, ExecutionRecord>();
    for (let i = 0; i < ids.length; i += 100) {
      let request: Record<string, unknown>[] = ids.slice(i, i + 100).map((id) => keys.execution(tenant, id));
      while (request.length > 0) {
        const out = await this.db.doc.send(
          new BatchGetCommand({ RequestItems: { [this.db.table]: { Keys: request, ConsistentRead: true } } }),
        );
        const records = await Promise.all((out.Responses?.[this.db.table] ?? []).map(this.full));
        for (const record of records) found.set(record.id, record);
        request = (out.UnprocessedKeys?.[this.db.table]?.Keys ?? []) as Record<string, unknown>[];
      }
    }
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /**
   * Newest first, `limit` items whenever that many match, and no cursor on the last page. Filters
   * other than status are applied by DynamoDB after its own Limit, so the query reads on until the
   * page is full and one item beyond it (to know whether a next page exists), within a bound.
   * `visibleTo` leaves out other people's chat turns (private chats), unless the viewer is an admin.
   */
  async listExecutionsByAgent(
    tenant: string,
    agent: string,
    opts: {
      limit: number;
      cursor?: string | undefined;
      status?: ExecutionStatus | undefined;
      source?: ExecutionSource | undefined;
      ownerUserId?: string | undefined;
      visibleTo?: { user_id: string; admin: boolean } | undefined;
    },
  ): Promise<ExecutionPage> {
    const [index, attr, sortAttr, partition] = opts.status
      ? (['gsi2', 'gsi2pk', 'gsi2sk', keys.executionsOfAgentByStatus(tenant, agent, opts.status)] as const)
      : (['gsi1', 'gsi1pk', 'gsi1sk', keys.executionsOfAgent(tenant, agent)] as const);
    const filters: string[] = [];
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':p': partition };
    if (opts.source) {
      filters.push('#src = :src');
      names['#src'] = 'source';
      values[':src'] = opts.source;
    }
    if (opts.ownerUserId) {
      filters.push('owner_user_id = :owner');
      values[':owner'] = opts.ownerUserId;
    }
    if (opts.visibleTo && !opts.visibleTo.admin) {
      filters.push('(#src <> :chat OR owner_user_id = :me)');
      names['#src'] = 'source';
      values[':chat'] = 'chat';
      values[':me'] = opts.visibleTo.user_id;
    }
    const raw: Record<string, unknown>[] = [];
    let start = decodeCursor(opts.cursor, attr, partition);
    for (let round = 0; round < MAX_LIST_ROUNDS && raw.length <= opts.limit; round++) {
      const out = await this.db.doc.send(
        new QueryCommand({
          TableName: this.db.table,
          IndexName: index,
          KeyConditionExpression: `${attr} = :p`,
          ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
          ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: values,
          ScanIndexForward: false,
          // With filters, read ahead a little: most pages then take one round.
          Limit: Math.min(1000, (opts.limit + 1 - raw.length) * (filters.length > 0 ? 4 : 1)),
          ExclusiveStartKey: start,
        }),
      );
      raw.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
      if (!start) break;
    }
    if (raw.length > opts.limit) {
      const last = raw[opts.limit - 1]!;
      const key = { pk: last.pk, sk: last.sk, [attr]: last[attr], [sortAttr]: last[sortAttr] };
      return { items: raw.slice(0, opts.limit).map(listed), cursor: encodeCursor(key) };
    }
    // Out of rounds before the page filled: hand back where the read stopped (a short page).
    return { items: raw.map(listed), cursor: encodeCursor(start) };
  }

  /** Queued runs of an agent in arrival order (the dispatcher's line). */
  async listQueuedOldestFirst(tenant: string, agent: string, limit: number): Promise<ExecutionRecord[]> {
    const out = await this.db.doc.send(
      new QueryCommand({
        TableName: this.db.table,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :p',
        ExpressionAttributeValues: { ':p': keys.executionsOfAgentByStatus(tenant, agent, 'queued') },
        ScanIndexForward: true,
        Limit: limit,
      }),
    );
    return (out.Items ?? []).map(toRecord);
  }

  /** Is any run of this agent waiting in its queue? (A new run may not start ahead of it.) */
  async hasQueuedRuns(tenant: string, agent: string): Promise<boolean> {
    return (await this.listQueuedOldestFirst(tenant, agent, 1)).length > 0;
  }

  /**
   * Records what a queued run now waits for. Returns the sequence number for the status event
   * that tells followers, or null when it was already recorded (or the run left the queue).
   */
  async markWaiting(e: Pick<ExecutionRecord, 'tenant' | 'id'>, reason: WaitingFor): Promise<number | null> {
    const item = await writtenItem(
      this.db.doc.send(
        new UpdateCommand({
          TableName: this.db.table,
          Key: keys.execution(e.tenant, e.id),
          UpdateExpression:
            'SET waiting_for = :w, queued_events = if_not_exists(queued_events, :zero) + :one',
          ConditionExpression:
            '#status = :queued AND (attribute_not_exists(waiting_for) OR waiting_for <> :w)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':w': reason, ':queued': 'queued', ':zero': 0, ':one': 1 },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    return item && Number(item.queued_events);
  }

  /**
   * queued → running for the dispatcher, returning the record as stored (null if it left the
   * queue). `handOver`: the same write names the runner (a dispatcher that delivers once).
   */
  async startQueued(
    e: Pick<ExecutionRecord, 'tenant' | 'id' | 'agent'>,
    startedAt: string,
    opts: { handOver?: boolean } = {},
  ): Promise<ExecutionRecord | null> {
    const item = await writtenItem(
      this.db.doc.send(
        new UpdateCommand({
          TableName: this.db.table,
          Key: keys.execution(e.tenant, e.id),
          UpdateExpression: `SET #status = :running, gsi2pk = :g2, started_at = :at, waiting_for = :null${opts.handOver ? ', runner_at = :at' : ''}`,
          ConditionExpression: '#status = :queued',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':running': 'running',
            ':queued': 'queued',
            ':g2': keys.executionsOfAgentByStatus(e.tenant, e.agent, 'running'),
            ':at': startedAt,
            ':null': null,
          },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return item && toRecord(item);
  }

  /** The resume gate's one Query: who wrote this session on this agent. */
  async findSessionOwners(tenant: string, agent: string, sessionId: string): Promise<SessionOwner[]> {
    const out = await this.db.doc.send(
      new QueryCommand({
        TableName: this.db.table,
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :p',
        ExpressionAttributeValues: { ':p': keys.sessionOwners(tenant, agent, sessionId) },
        ProjectionExpression: 'id, owner_user_id',
        Limit: 100,
      }),
    );
    return (out.Items ?? []).map((i) => ({
      execution_id: String(i.id),
      owner_user_id: String(i.owner_user_id),
    }));
  }

  /**
   * Hands a started run to one runner: Lambda may retry an async invoke or deliver it twice, and a
   * turn must never run twice. `taken` when a runner already has it; `ended` (with the stored
   * status) when it ended before any runner took it, e.g. cancelled — its slot and lease go back.
   */
  async claimRunner(
    e: Pick<ExecutionRecord, 'tenant' | 'id'>,
    at: string,
  ): Promise<{ claim: 'claimed' | 'taken' } | { claim: 'ended'; status: ExecutionStatus }> {
    try {
      await this.db.doc.send(
        new UpdateCommand({
          TableName: this.db.table,
          Key: keys.execution(e.tenant, e.id),
          UpdateExpression: 'SET runner_at = :at',
          ConditionExpression: '#status = :running AND attribute_not_exists(runner_at)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':at': at, ':running': 'running' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { claim: 'claimed' };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const item = (err as { Item?: Record<string, unknown> }).Item;
      if (!item || item.runner_at !== undefined) return { claim: 'taken' };
      return { claim: 'ended', status: item.status as ExecutionStatus };
    }
  }

  /** A fork learns its new session id only when the CLI reports it; index it for the gate then. */
  async recordSessionId(e: ExecutionRecord, sessionId: string): Promise<void> {
    await this.db.doc.send(
      new UpdateCommand({
        TableName: this.db.table,
        Key: keys.execution(e.tenant, e.id),
        UpdateExpression: 'SET claude_session_id = :s, gsi3pk = :g, gsi3sk = :id',
        ExpressionAttributeValues: {
          ':s': sessionId,
          ':g': keys.sessionOwners(e.tenant, e.agent, sessionId),
          ':id': e.id,
        },
      }),
    );
  }

  /** Writes the outcome unless the execution is already terminal: a terminal status is never overwritten. */
  async finishExecution(e: ExecutionRecord, outcome: ExecutionOutcome): Promise<boolean> {
    const { status, claude_session_id, response, tool_calls, ...rest } = outcome;
    const large = await spill(this.payloads, payloadPrefix(e.tenant, e.id), { response, tool_calls }, true);
    const fields: Record<string, unknown> = { ...rest, ...large };
    if (claude_session_id) {
      fields.claude_session_id = claude_session_id;
      fields.gsi3pk = keys.sessionOwners(e.tenant, e.agent, claude_session_id);
      fields.gsi3sk = e.id;
    }
    return this.conditionalUpdate(e, status, fields, ['queued', 'running']);
  }

  private async conditionalUpdate(
    e: Pick<ExecutionRecord, 'tenant' | 'agent' | 'id'>,
    status: ExecutionStatus,
    fields: Record<string, unknown>,
    from: ExecutionStatus[],
  ): Promise<boolean> {
    const names: Record<string, string> = { '#status': 'status' };
    const values: Record<string, unknown> = {
      ':status': status,
      ':g2': keys.executionsOfAgentByStatus(e.tenant, e.agent, status),
    };
    const sets = ['#status = :status', 'gsi2pk = :g2'];
    Object.entries(fields).forEach(([k, v], i) => {
      names[`#f${i}`] = k;
      values[`:f${i}`] = v;
      sets.push(`#f${i} = :f${i}`);
    });
    from.forEach((s, i) => {
      values[`:from${i}`] = s;
    });
    return applied(
      this.db.doc.send(
        new UpdateCommand({
          TableName: this.db.table,
          Key: keys.execution(e.tenant, e.id),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: `#status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      ),
    );
  }

  /** Records that a chat continues this execution (written with the chat's first turn). */
  continuationWrite(
    tenant: string,
    executionId: string,
    chatId: string,
    ownerUserId: string,
    at: string,
  ): TxWrite {
    return {
      Put: {
        TableName: this.db.table,
        Item: {
          ...keys.continuation(tenant, executionId, chatId),
          chat_session_id: chatId,
          owner_user_id: ownerUserId,
          created_at: at,
        },
      },
    };
  }

  /**
   * The execution and the chats continued from it in one consistent Query: they share a partition,
   * and the sort keys `C#<chat>` < `E` sit next to each other (events, `V#…`, come after).
   */
  async getExecutionWithContinuations(tenant: string, executionId: string): Promise<ExecutionDetail | null> {
    const out = await this.db.doc.send(
      new QueryCommand({
        TableName: this.db.table,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :c AND :e',
        ExpressionAttributeValues: { ':pk': keys.execution(tenant, executionId).pk, ':c': 'C#', ':e': 'E' },
        ConsistentRead: true,
      }),
    );
    const items = out.Items ?? [];
    const head = items.find((i) => i.sk === 'E');
    if (!head) return null;
    const continuations = items
      .filter((i) => String(i.sk).startsWith('C#'))
      .map((i) => ({
        chat_session_id: String(i.chat_session_id),
        owner_user_id: String(i.owner_user_id),
        created_at: String(i.created_at),
      }));
    return { execution: await this.full(head), continuations };
  }
}
