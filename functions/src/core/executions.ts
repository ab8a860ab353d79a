import type { AgentRecord } from '../data/stores/agents';
import type { ExecutionRecord } from '../data/stores/execution-record';
import { isTerminal } from '../data/stores/execution-record';
import type { Continuation } from '../data/stores/executions';
import { ConflictError, ForbiddenError } from '../lib/errors';
import type { Execution, ExecutionSummary } from '../lib/schemas/executions';
import { canAdministerAgent, canSeeChatOf, requireVisibleExecution } from './access';
import type { CoreDeps } from './deps';
import type { Identity } from './identity';
import { finishedKey } from './ports';
import { mayResume } from './resume-gate';

/** Only a queued run waits for anything. */
const waitingFor = (e: ExecutionRecord) => (e.status === 'queued' ? (e.waiting_for ?? null) : null);

export function toSummary(e: ExecutionRecord): ExecutionSummary {
  return {
    id: e.id,
    agent: e.agent,
    source: e.source,
    status: e.status,
    message: e.message.slice(0, 200),
    owner_user_id: e.owner_user_id,
    claude_session_id: e.claude_session_id,
    schedule_id: e.schedule_id,
    chat_session_id: e.chat_session_id,
    created_at: e.created_at,
    duration_ms: e.duration_ms,
    cost_usd: e.cost_usd,
    error_code: e.error?.code ?? null,
    waiting_for: waitingFor(e),
  };
}

/** The full view, with what only the server may decide for this caller. */
/** `continuations` when the caller already read them with the execution (one Query, not two). */
export async function executionView(
  deps: CoreDeps,
  who: Identity,
  e: ExecutionRecord,
  known?: Continuation[],
): Promise<Execution> {
  const [canContinue, continuations] = await Promise.all([
    e.claude_session_id && isTerminal(e.status)
      ? // The execution is indexed under its own session, so its owner passes the gate by definition.
        e.owner_user_id === who.user_id ||
        mayResume(deps.stores.executions, who, e.agent, e.claude_session_id)
      : false,
    known ??
      deps.stores.executions
        .getExecutionWithContinuations(e.tenant, e.id)
        .then((d) => d?.continuations ?? []),
  ]);
  return {
    id: e.id,
    agent: e.agent,
    runtime: e.runtime,
    source: e.source,
    status: e.status,
    message: e.message,
    model: e.model,
    response: e.response,
    error: e.error,
    owner_user_id: e.owner_user_id,
    triggered_by: e.triggered_by,
    claude_session_id: e.claude_session_id,
    resumed_session_id: e.resumed_session_id,
    resumed_from_execution_id: e.resumed_from_execution_id,
    chat_session_id: e.chat_session_id,
    forked: e.forked,
    cost_usd: e.cost_usd,
    context_used: e.context_used,
    context_max: e.context_max,
    num_turns: e.num_turns,
    tool_calls: e.tool_calls.map(({ name, input, is_error, output_preview }) => ({
      name,
      input,
      is_error,
      output_preview,
    })),
    created_at: e.created_at,
    started_at: e.started_at,
    finished_at: e.finished_at,
    duration_ms: e.duration_ms,
    schedule_id: e.schedule_id,
    can_continue_as_chat: canContinue,
    waiting_for: waitingFor(e),
    // Other people's chats stay private: list only the caller's (admins see all).
    continued_in: continuations
      .filter((c) => canSeeChatOf(who, c.owner_user_id))
      .map(({ chat_session_id, created_at }) => ({ chat_session_id, created_at })),
  };
}

const mayCancel = (who: Identity, e: ExecutionRecord, agent: AgentRecord) =>
  e.owner_user_id === who.user_id || canAdministerAgent(who, agent);

/**
 * Stops the agent's turn of a run that was ended by someone else (cancel, a dead runner), so its
 * CLI stops writing the session whose lease was just freed. Best effort: the agent may be gone.
 */
export async function stopTurnOnAgent(
  deps: Pick<CoreDeps, 'stores' | 'fleet' | 'agentClient'>,
  e: ExecutionRecord,
  known?: AgentRecord,
): Promise<void> {
  const agent = known ?? (await deps.stores.agents.getAgent(e.tenant, e.agent));
  if (!agent) return;
  const endpoint = await deps.fleet.endpoint({ tenant: e.tenant, agent: e.agent }, agent);
  if (endpoint) await deps.agentClient.cancel(endpoint, e.id);
}

/** Cancel wins any race with the runner: the conditional write makes `cancelled` final. */
export async function cancelExecution(deps: CoreDeps, who: Identity, id: string): Promise<ExecutionRecord> {
  const { execution: e, agent } = await requireVisibleExecution(deps.stores, who, id);
  if (!mayCancel(who, e, agent))
    throw new ForbiddenError('Only the person who ran it, the agent owner or an admin may cancel');
  const now = deps.clock.now();
  const started = Date.parse(e.started_at ?? e.created_at);
  const cancelled = await deps.stores.executions.finishExecution(e, {
    status: 'cancelled',
    response: e.response,
    error: { code: 'cancelled', message: `Cancelled by ${who.email}` },
    cost_usd: e.cost_usd,
    context_used: e.context_used,
    context_max: e.context_max,
    num_turns: e.num_turns,
    tool_calls: e.tool_calls,
    finished_at: new Date(now).toISOString(),
    duration_ms: Math.max(0, now - started),
    claude_session_id: e.claude_session_id,
  });
  if (!cancelled) throw new ConflictError(`Execution is already ${e.status}`);
  await stopTurnOnAgent(deps, e, agent);
  deps.signal.notify(e.id);
  deps.signal.notify(finishedKey(e.id));
  return { ...e, status: 'cancelled' };
}
