import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ExecutionSource, ExecutionStatus } from '../../lib/schemas/executions';
import type { Db } from '../client';
import { applied, isConditionFailure, recordOf } from '../client';
import { decodeCursor, encodeCursor } from '../cursor';
import { keys } from '../keys';
import type { ExecutionRecord, WaitingFor } from './execution-record';

const toRecord = (item: Record<string, unknown>) => recordOf<ExecutionRecord>(item);

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

export class ExecutionStore {
  constructor(private readonly db: Db) {}

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

  async createExecution(e: ExecutionRecord): Promise<void> {
    await this.db.doc.send(
      new PutCommand({
        TableName: this.db.table,
        Item: { ...keys.execution(e.tenant, e.id), type: 'execution', ...this.indexKeys(e), ...e },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getExecution(tenant: string, id: string): Promise<ExecutionRecord | null> {
    const out = await this.db.doc.send(
      new GetCommand({ TableName: this.db.table, Key: keys.execution(tenant, id), ConsistentRead: true }),
    );
    return out.Item ? toRecord(out.Item) : null;
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
        for (const item of out.Responses?.[this.db.table] ?? []) found.set(String(item.id), toRecord(item));
        request = (out.UnprocessedKeys?.[this.db.table]?.Keys ?? []) as Record<string, unknown>[];
      }
    }
    return ids.flatMap((id) => found.get(id) ?? []);
  }

  /** Newest first. With a status the query runs on the status index, so pages stay full. */
  async listExecutionsByAgent(
    tenant: string,
    agent: string,
    opts: {
      limit: number;
      cursor?: string | undefined;
      status?: ExecutionStatus | undefined;
      source?: ExecutionSource | undefined;
    },
  ): Promise<ExecutionPage> {
    const [index, attr, partition] = opts.status
      ? (['gsi2', 'gsi2pk', keys.executionsOfAgentByStatus(tenant, agent, opts.status)] as const)
      : (['gsi1', 'gsi1pk', keys.executionsOfAgent(tenant, agent)] as const);
    const out = await this.db.doc.send(
      new QueryCommand({
        TableName: this.db.table,
        IndexName: index,
        KeyConditionExpression: `${attr} = :p`,
        ...(opts.source
          ? { FilterExpression: '#src = :src', ExpressionAttributeNames: { '#src': 'source' } }
          : {}),
        ExpressionAttributeValues: { ':p': partition, ...(opts.source ? { ':src': opts.source } : {}) },
        ScanIndexForward: false,
        Limit: opts.limit,
        ExclusiveStartKey: decodeCursor(opts.cursor, attr, partition),
      }),
    );
    return { items: (out.Items ?? []).map(toRecord), cursor: encodeCursor(out.LastEvaluatedKey) };
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

  /**
   * Records what a queued run now waits for. Returns the sequence number for the status event
   * that tells followers, or null when it was already recorded (or the run left the queue).
   */
  async markWaiting(e: Pick<ExecutionRecord, 'tenant' | 'id'>, reason: WaitingFor): Promise<number | null> {
    try {
      const out = await this.db.doc.send(
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
      );
      return Number(out.Attributes?.queued_events);
    } catch (err) {
      if (isConditionFailure(err)) return null;
      throw err;
    }
  }

  /** queued → running for the dispatcher, returning the record as stored (null if it left the queue). */
  async startQueued(
    e: Pick<ExecutionRecord, 'tenant' | 'id' | 'agent'>,
    startedAt: string,
  ): Promise<ExecutionRecord | null> {
    try {
      const out = await this.db.doc.send(
        new UpdateCommand({
          TableName: this.db.table,
          Key: keys.execution(e.tenant, e.id),
          UpdateExpression: 'SET #status = :running, gsi2pk = :g2, started_at = :at, waiting_for = :null',
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
      );
      return toRecord(out.Attributes ?? {});
    } catch (err) {
      if (isConditionFailure(err)) return null;
      throw err;
    }
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

  /** queued → running. False when the run was cancelled (or already started) meanwhile. */
  async markRunning(e: ExecutionRecord, startedAt: string): Promise<boolean> {
    return this.conditionalUpdate(e, 'running', { started_at: startedAt }, ['queued']);
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
    const { status, claude_session_id, ...rest } = outcome;
    const fields: Record<string, unknown> = { ...rest };
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

  async addContinuation(
    tenant: string,
    executionId: string,
    chatId: string,
    ownerUserId: string,
    at: string,
  ) {
    await this.db.doc.send(
      new PutCommand({
        TableName: this.db.table,
        Item: {
          ...keys.continuation(tenant, executionId, chatId),
          chat_session_id: chatId,
          owner_user_id: ownerUserId,
          created_at: at,
        },
      }),
    );
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
    return { execution: toRecord(head), continuations };
  }
}
