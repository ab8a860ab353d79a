import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../lib/errors';
import type { Runtime } from '../../lib/schemas/agents';
import type { Db } from '../client';
import { applied, isConditionFailure, recordOf, type TxWrite, writeAll, writtenItem } from '../client';
import { keys } from '../keys';

/**
 * Where the platform has put the agent (see docs/design.md, "Agent lifecycle"). Every change is a
 * conditional write on `state_version`, so exactly one caller wins each transition.
 */
export type AgentState = 'stopped' | 'starting' | 'running' | 'stopping' | 'failed';

/** What the ECS fleet records about the running task so a turn needs no ECS call. */
export interface AgentTaskRef {
  readonly task_arn: string;
  /** Base URL of the agent server; null until the task has an address. */
  readonly endpoint_url: string | null;
  /** Name of the secret holding the agent's token (never the token itself). */
  readonly token_ref: string;
}

export interface AgentRecord {
  readonly tenant: string;
  readonly name: string;
  readonly runtime: Runtime;
  readonly owner_user_id: string;
  readonly owner_email: string;
  readonly shared_with: string[];
  readonly created_at: string;
  /** 0 = never sleep; absent on agents created before the setting existed (= default). */
  readonly idle_timeout_seconds?: number;
  readonly max_concurrent_runs?: number;
  readonly last_active_at?: string | null;
  readonly state?: AgentState;
  readonly state_version?: number;
  readonly state_at?: string;
  readonly start_error?: string | null;
  /** Turns holding a run slot right now (claimed and released by the dispatcher). */
  readonly running_count?: number;
  readonly task?: AgentTaskRef | null;
}

export interface AgentSettings {
  readonly idle_timeout_seconds?: number | undefined;
  readonly max_concurrent_runs?: number | undefined;
}

/** Why a run slot could not be had. */
export type SlotRefusal = 'agent' | 'capacity';

const toRecord = (item: Record<string, unknown>) => recordOf<AgentRecord>(item);

export class AgentStore {
  constructor(private readonly db: Db) {}

  async createAgent(agent: AgentRecord): Promise<void> {
    try {
      await this.db.doc.send(
        new PutCommand({
          TableName: this.db.table,
          Item: { ...keys.agent(agent.tenant, agent.name), type: 'agent', ...agent },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (e) {
      if (isConditionFailure(e)) throw new ConflictError(`An agent named ${agent.name} already exists`);
      throw e;
    }
  }

  async getAgent(tenant: string, name: string): Promise<AgentRecord | null> {
    const out = await this.db.doc.send(
      new GetCommand({ TableName: this.db.table, Key: keys.agent(tenant, name) }),
    );
    return out.Item ? toRecord(out.Item) : null;
  }

  async listAgentsByTenant(tenant: string): Promise<AgentRecord[]> {
    const items: AgentRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.db.doc.send(
        new QueryCommand({
          TableName: this.db.table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :a)',
          ExpressionAttributeValues: { ':pk': keys.tenant(tenant).pk, ':a': 'A#' },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(out.Items ?? []).map(toRecord));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }

  async updateSharing(tenant: string, name: string, sharedWith: string[]): Promise<AgentRecord> {
    const out = await this.db.doc.send(
      new UpdateCommand({
        TableName: this.db.table,
        Key: keys.agent(tenant, name),
        UpdateExpression: 'SET shared_with = :s',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':s': sharedWith },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toRecord(out.Attributes ?? {});
  }

  async updateSettings(tenant: string, name: string, settings: AgentSettings): Promise<AgentRecord> {
    const entries = Object.entries(settings).filter(([, v]) => v !== undefined);
    const out = await this.db.doc.send(
      new UpdateCommand({
        TableName: this.db.table,
        Key: keys.agent(tenant, name),
        UpdateExpression: `SET ${entries.map((_, i) => `#s${i} = :s${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#s${i}`, k])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:s${i}`, v])),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toRecord(out.Attributes ?? {});
  }

  /**
   * Moves the agent to `to` if nobody changed its state since `from` was read (optimistic
   * concurrency on state_version). `idle` additionally demands that no run holds a slot, so an
   * idle stop and a run starting can never both win.
   */
  async transition(
    from: AgentRecord,
    to: AgentState,
    at: string,
    opts: { idle?: boolean; startError?: string | null; task?: AgentTaskRef | null; active?: boolean } = {},
  ): Promise<AgentRecord | null> {
    const values: Record<string, unknown> = { ':to': to, ':at': at, ':one': 1, ':zero': 0 };
    const sets = [
      '#state = :to',
      'state_at = :at',
      'state_version = if_not_exists(state_version, :zero) + :one',
    ];
    if (opts.startError !== undefined) {
      sets.push('start_error = :err');
      values[':err'] = opts.startError;
    }
    if (opts.task !== undefined) {
      sets.push('#task = :task');
      values[':task'] = opts.task;
    }
    if (opts.active) sets.push('last_active_at = :at');
    const conditions = [
      from.state_version === undefined ? 'attribute_not_exists(state_version)' : 'state_version = :v',
    ];
    if (from.state_version !== undefined) values[':v'] = from.state_version;
    if (opts.idle) conditions.push('(attribute_not_exists(running_count) OR running_count <= :zero)');
    const item = await writtenItem(
      this.db.doc.send(
        new UpdateCommand({
          TableName: this.db.table,
          Key: keys.agent(from.tenant, from.name),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: `attribute_exists(pk) AND ${conditions.join(' AND ')}`,
          ExpressionAttributeNames: {
            '#state': 'state',
            ...(opts.task !== undefined ? { '#task': 'task' } : {}),
          },
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return item && toRecord(item);
  }

  /**
   * The two writes that take one run slot on the agent and one on its tenant: the agent must not
   * be stopping (with `whileRunning`: must be `running`) and below its max_concurrent_runs, the
   * tenant below its cap. Always written together, so a slot is never taken half.
   */
  runSlotWrites(
    agent: AgentRecord,
    max: number,
    tenantCap: number,
    at: string,
    opts: { whileRunning?: boolean } = {},
  ): [TxWrite, TxWrite] {
    const state = opts.whileRunning
      ? '#state = :running'
      : '(attribute_not_exists(#state) OR #state <> :stopping)';
    return [
      {
        Update: {
          TableName: this.db.table,
          Key: keys.agent(agent.tenant, agent.name),
          UpdateExpression:
            'SET running_count = if_not_exists(running_count, :zero) + :one, last_active_at = :at',
          ConditionExpression: `attribute_exists(pk) AND (attribute_not_exists(running_count) OR running_count < :max) AND ${state}`,
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':zero': 0,
            ':one': 1,
            ':max': max,
            ':at': at,
            ...(opts.whileRunning ? { ':running': 'running' } : { ':stopping': 'stopping' }),
          },
        },
      },
      {
        Update: {
          TableName: this.db.table,
          Key: keys.tenantRunSlots(agent.tenant),
          UpdateExpression: 'SET running = if_not_exists(running, :zero) + :one',
          ConditionExpression: 'attribute_not_exists(running) OR running < :cap',
          ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':cap': tenantCap },
        },
      },
    ];
  }

  /** Takes a run slot (see runSlotWrites). Null when it worked, else what refused it. */
  async claimRunSlot(
    agent: AgentRecord,
    max: number,
    tenantCap: number,
    at: string,
  ): Promise<SlotRefusal | null> {
    const failed = await writeAll(this.db, this.runSlotWrites(agent, max, tenantCap, at));
    if (!failed) return null;
    const current = await this.getAgent(agent.tenant, agent.name);
    if (failed[0] && current?.state === 'stopping') return 'agent';
    return 'capacity';
  }

  /**
   * Gives a slot back (agent and tenant); never below zero. Marks the agent active now. Returns the
   * agent item as the write left it, so whoever dispatches the queue next need not read it again
   * (null when there was no slot to give back).
   */
  async releaseRunSlot(tenant: string, name: string, at: string): Promise<AgentRecord | null> {
    const [agent] = await Promise.all([
      writtenItem(
        this.db.doc.send(
          new UpdateCommand({
            TableName: this.db.table,
            Key: keys.agent(tenant, name),
            UpdateExpression: 'SET running_count = running_count - :one, last_active_at = :at',
            ConditionExpression: 'running_count > :zero',
            ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':at': at },
            ReturnValues: 'ALL_NEW',
          }),
        ),
      ),
      applied(
        this.db.doc.send(
          new UpdateCommand({
            TableName: this.db.table,
            Key: keys.tenantRunSlots(tenant),
            UpdateExpression: 'SET running = running - :one',
            ConditionExpression: 'running > :zero',
            ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
          }),
        ),
      ),
    ]);
    return agent && toRecord(agent);
  }

  /**
   * Backstop for a runner that died holding a slot: set the count to what is really running. A
   * claim marks its run running right after taking the slot, so only a count nobody touched for
   * `quietMs` (claims and releases stamp last_active_at) is trusted to be stale.
   */
  async reconcileRunSlots(
    agent: AgentRecord,
    actual: number,
    now: number,
    quietMs: number,
  ): Promise<boolean> {
    const held = agent.running_count ?? 0;
    const seen = agent.last_active_at ?? null;
    if (held <= actual || !seen || Date.parse(seen) + quietMs > now) return false;
    const ok = await applied(
      this.db.doc.send(
        new UpdateCommand({
          TableName: this.db.table,
          Key: keys.agent(agent.tenant, agent.name),
          UpdateExpression: 'SET running_count = :n',
          ConditionExpression: 'running_count = :held AND last_active_at = :seen',
          ExpressionAttributeValues: { ':n': actual, ':held': held, ':seen': seen },
        }),
      ),
    );
    if (ok) {
      await applied(
        this.db.doc.send(
          new UpdateCommand({
            TableName: this.db.table,
            Key: keys.tenantRunSlots(agent.tenant),
            UpdateExpression: 'SET running = running - :d',
            ConditionExpression: 'running >= :d',
            ExpressionAttributeValues: { ':d': held - actual },
          }),
        ),
      );
    }
    return ok;
  }

  async deleteAgent(tenant: string, name: string): Promise<void> {
    await this.db.doc.send(new DeleteCommand({ TableName: this.db.table, Key: keys.agent(tenant, name) }));
  }
}
