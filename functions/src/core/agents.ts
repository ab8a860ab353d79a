import type { AgentRecord } from '../data/stores/agents';
import type { Agent, CreateAgentRequest } from '../lib/schemas/agents';
import type { SchedulerPort } from '../scheduling/scheduler-port';
import { canSeeAgent, requireAgentAdministrator, requireVisibleAgent } from './access';
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

/** Starting and stopping are operational: anyone who sees the agent may. */
export async function setAgentRunning(
  deps: CoreDeps,
  who: Identity,
  name: string,
  running: boolean,
): Promise<Agent> {
  const agent = await requireVisibleAgent(deps.stores, who, name);
  const ref = { tenant: who.tenant, agent: name, runtime: agent.runtime };
  // Awaited: in Lambda nothing may run after the response. The AWS fleet only queues the start.
  const status = running ? await deps.fleet.start(ref) : await deps.fleet.stop(ref);
  return { ...(await agentView(deps, agent)), status };
}

const normaliseEmails = (emails: string[]) => [...new Set(emails.map((e) => e.toLowerCase()))];
