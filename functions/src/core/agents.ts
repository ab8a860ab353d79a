import type { AgentRecord } from '../data/stores/agents';
import type { Agent, AgentSettingsRequest, CreateAgentRequest } from '../lib/schemas/agents';
import type { SchedulerPort } from '../scheduling/scheduler-port';
import { canSeeAgent, requireAgentAdministrator, requireVisibleAgent } from './access';
import {
  DEFAULT_IDLE_TIMEOUT_SECONDS,
  DEFAULT_MAX_CONCURRENT_RUNS,
  idleTimeoutOf,
  maxRunsOf,
  startAgent,
  stopAgent,
} from './agent-lifecycle';
import type { CoreDeps } from './deps';
import type { Identity } from './identity';

export async function agentView(deps: CoreDeps, a: AgentRecord): Promise<Agent> {
  return {
    name: a.name,
    runtime: a.runtime,
    status: await deps.fleet.status({ tenant: a.tenant, agent: a.name }),
    owner: a.owner_email,
    shared_with: a.shared_with,
    created_at: a.created_at,
    idle_timeout_seconds: idleTimeoutOf(a),
    max_concurrent_runs: maxRunsOf(a),
    last_active_at: a.last_active_at ?? null,
  };
}

export async function listAgents(deps: CoreDeps, who: Identity): Promise<Agent[]> {
  const all = await deps.stores.agents.listAgentsByTenant(who.tenant);
  return Promise.all(all.filter((a) => canSeeAgent(who, a)).map((a) => agentView(deps, a)));
}

export async function createAgent(deps: CoreDeps, who: Identity, body: CreateAgentRequest): Promise<Agent> {
  const record: AgentRecord = {
    tenant: who.tenant,
    name: body.name,
    runtime: body.runtime ?? 'claude',
    owner_user_id: who.user_id,
    owner_email: who.email,
    shared_with: normaliseEmails(body.shared_with ?? []),
    created_at: new Date(deps.clock.now()).toISOString(),
    idle_timeout_seconds: body.idle_timeout_seconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS,
    max_concurrent_runs: body.max_concurrent_runs ?? DEFAULT_MAX_CONCURRENT_RUNS,
    last_active_at: null,
  };
  await deps.stores.agents.createAgent(record);
  await deps.fleet.create({ tenant: who.tenant, agent: body.name, runtime: record.runtime });
  return agentView(deps, record);
}

/** Schedules go first: a trigger left behind would keep firing at an agent that is gone. */
export async function deleteAgent(deps: CoreDeps, scheduler: SchedulerPort, who: Identity, name: string) {
  const agent = await requireVisibleAgent(deps.stores, who, name);
  requireAgentAdministrator(who, agent);
  for (const schedule of await deps.stores.schedules.listSchedulesByAgent(who.tenant, name)) {
    await scheduler.remove(schedule);
    await deps.stores.schedules.deleteSchedule(who.tenant, schedule.id);
  }
  await deps.fleet.destroy({ tenant: who.tenant, agent: name });
  await deps.stores.agents.deleteAgent(who.tenant, name);
}

export async function shareAgent(
  deps: CoreDeps,
  who: Identity,
  name: string,
  emails: string[],
): Promise<Agent> {
  const agent = await requireVisibleAgent(deps.stores, who, name);
  requireAgentAdministrator(who, agent);
  return agentView(deps, await deps.stores.agents.updateSharing(who.tenant, name, normaliseEmails(emails)));
}

/** Settings shape cost and load: the owner's and admins' call, like sharing. */
export async function updateAgentSettings(
  deps: CoreDeps,
  who: Identity,
  name: string,
  settings: AgentSettingsRequest,
): Promise<Agent> {
  const agent = await requireVisibleAgent(deps.stores, who, name);
  requireAgentAdministrator(who, agent);
  const updated = await deps.stores.agents.updateSettings(who.tenant, name, settings);
  // A higher max_concurrent_runs may let queued runs start now.
  await deps.dispatcher.dispatch({ tenant: who.tenant, execution_id: '', agent_queue: name });
  return agentView(deps, updated);
}

/** Starting and stopping are operational: anyone who sees the agent may. */
export async function setAgentRunning(
  deps: CoreDeps,
  who: Identity,
  name: string,
  running: boolean,
): Promise<Agent> {
  const agent = await requireVisibleAgent(deps.stores, who, name);
  // Awaited: in Lambda nothing may run after the response. The AWS fleet only hands the start over.
  const after = running ? await startAgent(deps, agent) : ((await stopAgent(deps, agent)) ?? agent);
  return agentView(deps, after);
}

/**
 * Wakes a sleeping agent ahead of a run (the Chat tab opening, Continue as Chat): the dispatcher
 * does the start, so the request returns at once. Idempotent: an agent that is up stays up.
 */
export async function requestWake(deps: CoreDeps, who: Identity, name: string): Promise<Agent> {
  const agent = await requireVisibleAgent(deps.stores, who, name);
  await deps.dispatcher.dispatch({
    tenant: who.tenant,
    execution_id: '',
    agent_queue: agent.name,
    wake: true,
  });
  return agentView(deps, agent);
}

const normaliseEmails = (emails: string[]) => [...new Set(emails.map((e) => e.toLowerCase()))];
