import type { ExecutionStore, SessionOwner } from '../data/stores/executions';
import { isWellFormedSessionId } from '../lib/agent-events';
import { AppError } from '../lib/errors';
import { type Identity, isAdmin } from './identity';

/**
 * One body for unknown and foreign ids: a caller must not learn that someone else's session
 * exists on this agent (otherwise the 404/403 difference is an IDOR oracle).
 */
const sessionNotFound = () =>
  new AppError(404, 'session_not_found', 'No session with that id on this agent is yours to resume');

export function assertWellFormedSessionId(sessionId: string): void {
  if (!isWellFormedSessionId(sessionId)) {
    throw new AppError(400, 'invalid_session_id', 'resume_session_id is not a valid session id');
  }
}

/**
 * The resume gate, applied whenever a request carries a session id to resume — whatever headers
 * it has. The id must have been written by an execution on this agent that the caller owns;
 * tenant admins skip the ownership check (not the shape check). Returns the executions that wrote
 * the session, the caller's own first.
 */
export async function passResumeGate(
  executions: ExecutionStore,
  who: Identity,
  agent: string,
  sessionId: string,
): Promise<SessionOwner[]> {
  assertWellFormedSessionId(sessionId);
  const owners = await executions.findSessionOwners(who.tenant, agent, sessionId);
  const mine = owners.filter((o) => o.owner_user_id === who.user_id);
  if (mine.length > 0) return [...mine, ...owners.filter((o) => o.owner_user_id !== who.user_id)];
  if (owners.length > 0 && isAdmin(who)) return owners;
  throw sessionNotFound();
}

/** The same rule as a yes/no, for `can_continue_as_chat`. */
export async function mayResume(executions: ExecutionStore, who: Identity, agent: string, sessionId: string) {
  try {
    await passResumeGate(executions, who, agent, sessionId);
    return true;
  } catch (e) {
    if (e instanceof AppError) return false;
    throw e;
  }
}
