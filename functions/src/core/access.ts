import type { Stores } from '../data/create-stores';
import type { AgentRecord } from '../data/stores/agents';
import type { ExecutionDetail } from '../data/stores/executions';
import { ForbiddenError, NotFoundError } from '../lib/errors';
import { type Identity, isAdmin } from './identity';

/** Same tenant and (admin, owner or shared with). Everything else must look like a missing name. */
export const canSeeAgent = (who: Identity, agent: AgentRecord): boolean =>
  agent.tenant === who.tenant &&
  (isAdmin(who) || agent.owner_user_id === who.user_id || agent.shared_with.includes(who.email));

/** Deleting and re-sharing an agent belong to its owner and the tenant's admins. */
export const canAdministerAgent = (who: Identity, agent: AgentRecord): boolean =>
  agent.tenant === who.tenant && (isAdmin(who) || agent.owner_user_id === who.user_id);

export async function requireVisibleAgent(stores: Stores, who: Identity, name: string): Promise<AgentRecord> {
  // The key starts with the caller's tenant, so another tenant's agent is simply not found.
  const agent = await stores.agents.getAgent(who.tenant, name);
  if (!agent || !canSeeAgent(who, agent)) throw new NotFoundError('Agent');
  return agent;
}

export function requireAgentAdministrator(who: Identity, agent: AgentRecord): void {
  if (!canAdministerAgent(who, agent))
    throw new ForbiddenError('Only the agent owner or an admin may do this');
}

/**
 * Private chats are their owner's: a chat, its turns (executions with source `chat`), their events
 * and its entry under "continued in" are visible to the chat's owner and the tenant's admins only.
 */
export const canSeeChatOf = (who: Identity, ownerUserId: string): boolean =>
  isAdmin(who) || ownerUserId === who.user_id;

/**
 * Executions are visible to whoever sees their agent (as on the reference platform), except chat
 * turns, which follow their chat. Anything hidden is the same 404 as an unknown id.
 */
export async function requireVisibleExecution(
  stores: Stores,
  who: Identity,
  id: string,
): Promise<ExecutionDetail & { agent: AgentRecord }> {
  const detail = await stores.executions.getExecutionWithContinuations(who.tenant, id);
  const agent = detail ? await stores.agents.getAgent(who.tenant, detail.execution.agent) : null;
  if (!detail || !agent || !canSeeAgent(who, agent)) throw new NotFoundError('Execution');
  const e = detail.execution;
  if (e.source === 'chat' && !canSeeChatOf(who, e.owner_user_id)) throw new NotFoundError('Execution');
  return { ...detail, agent };
}
