import type { AgentRecord, AgentTaskRef } from '../data/stores/agents';
import type { ExecutionRecord, WaitingFor } from '../data/stores/execution-record';
import type { AgentRef } from '../fleet/agent-fleet';
import { endRun } from '../runner/end-run';
import type { CoreDeps } from './deps';

export const DEFAULT_IDLE_TIMEOUT_SECONDS = 900;
export const DEFAULT_MAX_CONCURRENT_RUNS = 4;
/** Runs of one tenant holding a slot at once, over all its agents (REPRISE_TENANT_MAX_CONCURRENT_RUNS). */
export const DEFAULT_TENANT_MAX_CONCURRENT_RUNS = 32;
/** A `starting` claim older than this is taken over: its starter died (local start ≤ 30 s, Fargate ≤ 3 min). */
export const DEFAULT_START_STALE_MS = 5 * 60_000;
/** How many queued runs one dispatch pass looks at; the rest wait for the next pass. */
const QUEUE_PAGE = 100;

export interface LifecycleConfig {
  readonly tenantMaxConcurrentRuns: number;
  readonly startStaleMs: number;
}

/** REPRISE_TENANT_MAX_CONCURRENT_RUNS caps one tenant's concurrent runs over all its agents. */
export function lifecycleConfigFromEnv(source: Record<string, string | undefined>): LifecycleConfig {
  const cap = Number(source.REPRISE_TENANT_MAX_CONCURRENT_RUNS);
  return {
    tenantMaxConcurrentRuns: Number.isInteger(cap) && cap > 0 ? cap : DEFAULT_TENANT_MAX_CONCURRENT_RUNS,
    startStaleMs: DEFAULT_START_STALE_MS,
  };
}

export type LifecycleDeps = Pick<
  CoreDeps,
  'stores' | 'fleet' | 'agentClient' | 'dispatcher' | 'signal' | 'clock' | 'logger' | 'lifecycle'
>;

export const lifecycleConfig = (deps: Pick<LifecycleDeps, 'lifecycle'>): LifecycleConfig => ({
  tenantMaxConcurrentRuns: deps.lifecycle?.tenantMaxConcurrentRuns ?? DEFAULT_TENANT_MAX_CONCURRENT_RUNS,
  startStaleMs: deps.lifecycle?.startStaleMs ?? DEFAULT_START_STALE_MS,
});

export const idleTimeoutOf = (a: AgentRecord): number =>
  a.idle_timeout_seconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS;
export const maxRunsOf = (a: AgentRecord): number => a.max_concurrent_runs ?? DEFAULT_MAX_CONCURRENT_RUNS;
const refOf = (a: AgentRecord): AgentRef => ({ tenant: a.tenant, agent: a.name, runtime: a.runtime });
const iso = (deps: LifecycleDeps) => new Date(deps.clock.now()).toISOString();

/**
 * The agent's dispatch queue. Every trigger (a new run, a finished run, an agent that became
 * healthy, the sweeper) calls this; it starts the oldest queued runs while slots are free, wakes
 * the agent when it sleeps, and records what the rest wait for. Nothing waits in a process: a run
 * that cannot start stays `queued` in the table until the next trigger.
 */
export async function pumpAgent(
  deps: LifecycleDeps,
  tenant: string,
  name: string,
  /**
   * agentMessage: the unredacted message of `include`, handed on if it starts now (never stored).
   * known: the agent item the trigger read a moment ago; every write below is conditional on the
   * item as it is in the table, so a stale copy can only make a claim fail, never double-book.
   */
  opts: { wake?: boolean; include?: ExecutionRecord; agentMessage?: string; known?: AgentRecord } = {},
): Promise<void> {
  const agent = opts.known ?? (await deps.stores.agents.getAgent(tenant, name));
  if (!agent) return;
  const queue = await queuedRuns(deps, agent, opts.include);
  if (queue.length === 0 && !opts.wake) return;
  const endpoint = agent.state === 'stopping' ? null : await deps.fleet.endpoint(refOf(agent), agent);
  if (!endpoint) {
    await markWaiting(deps, queue, 'agent');
    // Whoever is stopping or starting it dispatches the queue when done.
    if (agent.state === 'stopping' || (agent.state === 'starting' && !isStale(deps, agent))) return;
    await wakeAgent(deps, agent);
    return;
  }
  // Up: started outside the lifecycle (seed, tests), or its starter is still writing `running`.
  if (agent.state !== 'running')
    await deps.stores.agents.transition(agent, 'running', iso(deps), { active: true });
  const messages = opts.include && opts.agentMessage ? { [opts.include.id]: opts.agentMessage } : {};
  await startQueued(deps, agent, queue, messages);
}

async function queuedRuns(deps: LifecycleDeps, agent: AgentRecord, include?: ExecutionRecord) {
  const queue = await deps.stores.executions.listQueuedOldestFirst(agent.tenant, agent.name, QUEUE_PAGE);
  // The status index may lag a write that just happened; the trigger's own run is known anyway.
  if (include && include.status === 'queued' && !queue.some((e) => e.id === include.id)) {
    queue.push(include);
    queue.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
  return queue;
}

async function startQueued(
  deps: LifecycleDeps,
  agent: AgentRecord,
  queue: ExecutionRecord[],
  agentMessages: Record<string, string>,
): Promise<void> {
  const { tenantMaxConcurrentRuns } = lifecycleConfig(deps);
  for (let i = 0; i < queue.length; i++) {
    const e = queue[i]!;
    const refused = await deps.stores.agents.claimRunSlot(
      agent,
      maxRunsOf(agent),
      tenantMaxConcurrentRuns,
      iso(deps),
    );
    if (refused) {
      // Stopping: the stopper dispatches the queue (and wakes the agent) once it is down.
      await markWaiting(deps, queue.slice(i), refused);
      return;
    }
    const handOver = deps.dispatcher.deliversOnce === true;
    const started = await deps.stores.executions.startQueued(e, iso(deps), { handOver });
    if (!started) {
      // Cancelled, or another dispatcher started it first: give the slot to the next one.
      await deps.stores.agents.releaseRunSlot(agent.tenant, agent.name, iso(deps));
      continue;
    }
    await deps.dispatcher.dispatch({
      tenant: e.tenant,
      execution_id: e.id,
      execution: started,
      agent,
      claimed: true,
      ...(handOver ? { runner_claimed: true } : {}),
      ...(agentMessages[e.id] === undefined ? {} : { agent_message: agentMessages[e.id] }),
    });
  }
}

/** Stores the `queued` status event once per change of what a run waits for. */
async function markWaiting(deps: LifecycleDeps, runs: ExecutionRecord[], reason: WaitingFor): Promise<void> {
  await Promise.all(
    runs.map(async (e) => {
      const seq = await deps.stores.executions.markWaiting(e, reason);
      if (seq === null) return;
      e.waiting_for = reason;
      e.queued_events = seq;
      await deps.stores.events.appendEvents(e.tenant, e.id, [
        {
          seq,
          type: 'status',
          data: { type: 'status', status: 'queued', waiting_for: reason, session_id: e.claude_session_id },
          created_at: iso(deps),
        },
      ]);
      deps.signal.notify(e.id);
    }),
  );
}

const isStale = (deps: LifecycleDeps, a: AgentRecord) =>
  Date.parse(a.state_at ?? '1970-01-01T00:00:00Z') + lifecycleConfig(deps).startStaleMs < deps.clock.now();

/**
 * Starts the agent unless someone else already is: the conditional write on the agent item picks
 * exactly one starter however many runs arrive. The starter dispatches the queue once the agent is
 * healthy, or fails every waiting run with `agent_start_failed`.
 */
export async function wakeAgent(deps: LifecycleDeps, agent: AgentRecord): Promise<AgentRecord> {
  const claimed = await deps.stores.agents.transition(agent, 'starting', iso(deps), { startError: null });
  if (!claimed) return (await deps.stores.agents.getAgent(agent.tenant, agent.name)) ?? agent;
  let status: string;
  try {
    status = await deps.fleet.start(refOf(agent));
  } catch (err) {
    return agentStartFailed(deps, claimed, err instanceof Error ? err.message : String(err));
  }
  // In AWS the start is only handed over here; the task-state handler finishes it.
  if (status !== 'running') return claimed;
  return agentBecameHealthy(deps, claimed);
}

/** The start failed for good: say why on the agent and end every run waiting for it. */
export async function agentStartFailed(
  deps: LifecycleDeps,
  agent: AgentRecord,
  reason: string,
): Promise<AgentRecord> {
  deps.logger.warn('agent start failed', {
    tenant: agent.tenant,
    agent: agent.name,
    error: reason.slice(0, 300),
  });
  const failed = await deps.stores.agents.transition(agent, 'failed', iso(deps), {
    startError: reason,
    task: null,
  });
  await failQueuedRuns(deps, agent, reason);
  return failed ?? agent;
}

/** The agent answers /health: record it (with its task, in AWS) and start what waits for it. */
export async function agentBecameHealthy(
  deps: LifecycleDeps,
  agent: AgentRecord,
  task?: AgentTaskRef,
): Promise<AgentRecord> {
  const running = await deps.stores.agents.transition(agent, 'running', iso(deps), {
    active: true,
    ...(task ? { task } : {}),
  });
  await pumpAgent(deps, agent.tenant, agent.name);
  return running ?? agent;
}

async function failQueuedRuns(deps: LifecycleDeps, agent: AgentRecord, reason: string): Promise<void> {
  const message = `The agent ${agent.name} could not be started (${reason.slice(0, 300)}). Try again; if it keeps failing, check the agent's logs or ask an admin.`;
  for (;;) {
    const queue = await deps.stores.executions.listQueuedOldestFirst(agent.tenant, agent.name, QUEUE_PAGE);
    if (queue.length === 0) return;
    let ended = 0;
    for (const e of queue) if (await endRun(deps, e, 'agent_start_failed', message)) ended++;
    if (ended === 0) return;
  }
}

/** Manual Start: wake it unless it is already up. */
export async function startAgent(deps: LifecycleDeps, agent: AgentRecord): Promise<AgentRecord> {
  if (agent.state === 'running' && (await deps.fleet.endpoint(refOf(agent), agent))) return agent;
  return wakeAgent(deps, agent);
}

/**
 * Stops the agent. `idle` stops only if no run holds a slot (the same conditional write a run
 * start contends with) and returns null when it lost that race; a manual stop always stops.
 * Runs that arrived meanwhile wake it again.
 */
export async function stopAgent(
  deps: LifecycleDeps,
  agent: AgentRecord,
  opts: { idle?: boolean } = {},
): Promise<AgentRecord | null> {
  let current: AgentRecord | null = agent;
  let stopping: AgentRecord | null = null;
  for (let attempt = 0; current && !stopping && attempt < 5; attempt++) {
    stopping = await deps.stores.agents.transition(current, 'stopping', iso(deps), {
      idle: opts.idle ?? false,
    });
    if (!stopping && opts.idle) return null;
    if (!stopping) current = await deps.stores.agents.getAgent(agent.tenant, agent.name);
  }
  if (!stopping) return current;
  let failure: unknown = null;
  try {
    await deps.fleet.stop(refOf(agent));
  } catch (e) {
    failure = e;
  }
  const stopped = await deps.stores.agents.transition(stopping, 'stopped', iso(deps), { task: null });
  await pumpAgent(deps, agent.tenant, agent.name);
  if (failure) throw failure;
  return stopped ?? stopping;
}

/** Is this agent past its idle timeout with nothing running? */
export function isIdle(a: AgentRecord, now: number): boolean {
  const timeout = idleTimeoutOf(a);
  if (timeout === 0 || (a.running_count ?? 0) > 0) return false;
  if (a.state !== 'running') return false;
  const since = Date.parse(a.last_active_at ?? a.state_at ?? a.created_at);
  return since + timeout * 1000 <= now;
}

/**
 * The periodic lifecycle pass (local interval, EventBridge rate rule in AWS): stops idle agents,
 * dispatches queued runs an event missed, and repairs run-slot counts a dead runner left behind.
 */
export async function lifecycleSweep(deps: LifecycleDeps): Promise<{ stopped: number }> {
  let stopped = 0;
  for (const tenant of await deps.stores.users.listTenants()) {
    for (const agent of await deps.stores.agents.listAgentsByTenant(tenant)) {
      try {
        if (isIdle(agent, deps.clock.now())) {
          if (await stopAgent(deps, agent, { idle: true })) stopped++;
          continue;
        }
        if ((agent.running_count ?? 0) > 0) {
          const running = await deps.stores.executions.listExecutionsByAgent(tenant, agent.name, {
            limit: 100,
            status: 'running',
          });
          await deps.stores.agents.reconcileRunSlots(agent, running.items.length, deps.clock.now(), 60_000);
        }
        await pumpAgent(deps, tenant, agent.name);
      } catch (e) {
        deps.logger.error('lifecycle sweep failed for an agent', {
          tenant,
          agent: agent.name,
          error: String(e),
        });
      }
    }
  }
  return { stopped };
}
