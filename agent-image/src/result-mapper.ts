import type { RunError } from '@reprise/functions/agent-events';
import type { CliExit } from './cli-process';
import type { RunOutcome } from './runtime';
import type { ParserState } from './stream-parser';

const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** The last API call's prompt size: what the next call starts from. */
const contextUsed = (usage: ParserState['usage']): number | null => {
  if (!usage) return null;
  const total =
    (num(usage.input_tokens) ?? 0) +
    (num(usage.cache_creation_input_tokens) ?? 0) +
    (num(usage.cache_read_input_tokens) ?? 0);
  return total > 0 ? total : null;
};

const contextMax = (modelUsage: unknown): number | null => {
  if (!modelUsage || typeof modelUsage !== 'object') return null;
  const windows = Object.values(modelUsage as Record<string, { contextWindow?: unknown }>)
    .map((entry) => num(entry?.contextWindow))
    .filter((n): n is number => n !== null);
  return windows.length > 0 ? Math.max(...windows) : null;
};

const errorsOf = (result: ParserState['result']): string[] =>
  Array.isArray(result?.errors)
    ? result.errors.filter((e: unknown): e is string => typeof e === 'string')
    : [];

const classify = (state: ParserState, exit: CliExit): RunError | null => {
  const { result } = state;
  if (!result) {
    const why = exit.spawnError ?? `claude exited with code ${exit.exitCode ?? exit.signal ?? 'unknown'}`;
    const detail = exit.stderrTail.trim().split('\n').slice(-3).join(' ').slice(0, 500);
    return { code: 'cli_failed', message: detail ? `${why}: ${detail}` : why };
  }
  const errors = errorsOf(result);
  if (errors.some((e) => e.includes('No conversation found'))) {
    return { code: 'session_not_found', message: 'The CLI has no conversation with this session id' };
  }
  // `subtype: "success"` alone is not enough: API failures arrive as success with `is_error: true`.
  if (result.subtype === 'success' && result.is_error !== true) return null;
  const apiStatus = num(result.api_error_status) ?? state.modelErrorStatus;
  if (apiStatus !== null || result.terminal_reason === 'api_error') {
    const text = typeof result.result === 'string' ? result.result : 'model API error';
    return { code: 'model_error', message: text.slice(0, 500) };
  }
  const message =
    errors.join('; ') || (typeof result.result === 'string' ? result.result : '') || String(result.subtype);
  return { code: 'cli_failed', message: message.slice(0, 500) };
};

export const mapResult = (state: ParserState, exit: CliExit): RunOutcome => {
  const { result } = state;
  const error = classify(state, exit);
  return {
    status: error ? 'failed' : 'success',
    sessionId: state.sessionId,
    response: typeof result?.result === 'string' ? result.result : state.text,
    error,
    costUsd: num(result?.total_cost_usd),
    contextUsed: contextUsed(state.usage),
    contextMax: contextMax(result?.modelUsage),
    numTurns: num(result?.num_turns),
    toolCalls: state.toolCalls,
  };
};
