import type { AgentTaskRequest, ResultEvent } from '@reprise/functions/agent-events';
import type { RunOutcome } from './runtime';
import type { StopReason } from './task-registry';

export const failed = (code: NonNullable<RunOutcome['error']>['code'], message: string): RunOutcome => ({
  status: 'failed',
  sessionId: null,
  response: '',
  error: { code, message },
  costUsd: null,
  contextUsed: null,
  contextMax: null,
  numTurns: null,
  toolCalls: [],
});

export const stopped = (outcome: RunOutcome, reason: StopReason, request: AgentTaskRequest): RunOutcome => ({
  ...outcome,
  status: reason,
  error: {
    code: reason,
    message: reason === 'timeout' ? `Timed out after ${request.timeout_seconds ?? '?'} s` : 'Cancelled',
  },
});

export const toResult = (outcome: RunOutcome, durationMs: number): ResultEvent => ({
  type: 'result',
  status: outcome.status,
  session_id: outcome.sessionId,
  response: outcome.response,
  error: outcome.error,
  cost_usd: outcome.costUsd,
  context_used: outcome.contextUsed,
  context_max: outcome.contextMax,
  num_turns: outcome.numTurns,
  tool_calls: outcome.toolCalls,
  duration_ms: durationMs,
});
