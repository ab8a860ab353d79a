import type { ExecutionRecord } from '../data/stores/execution-record';
import type { ExecutionOutcome } from '../data/stores/executions';
import type { ResultEvent, RunErrorCode } from '../lib/agent-events';

export function outcomeFromResult(result: ResultEvent, finishedAt: string): ExecutionOutcome {
  return {
    status: result.status,
    response: result.response,
    error: result.error,
    cost_usd: result.cost_usd,
    context_used: result.context_used,
    context_max: result.context_max,
    num_turns: result.num_turns,
    tool_calls: result.tool_calls,
    finished_at: finishedAt,
    duration_ms: result.duration_ms,
    claude_session_id: result.session_id,
  };
}

/** A result the platform reports itself when the agent could not (crash, unreachable, busy). */
export function failureResult(
  e: ExecutionRecord,
  code: RunErrorCode,
  message: string,
  now: number,
): ResultEvent {
  const started = e.started_at ? Date.parse(e.started_at) : Date.parse(e.created_at);
  return {
    type: 'result',
    status: code === 'cancelled' ? 'cancelled' : code === 'timeout' ? 'timeout' : 'failed',
    session_id: e.claude_session_id,
    response: '',
    error: { code, message },
    cost_usd: null,
    context_used: null,
    context_max: null,
    num_turns: null,
    tool_calls: [],
    duration_ms: Math.max(0, now - started),
  };
}
