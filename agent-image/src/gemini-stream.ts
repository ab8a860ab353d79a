import type { AgentEvent, RunError } from '@reprise/functions/agent-events';
import type { CliExit } from './cli-process';
import { type Line, num, parseLine as parse } from './json-line';
import type { RunOutcome } from './runtime';
import { createToolCalls } from './tool-calls';

/** gemini-cli's exit code for "turn limit exceeded" (its headless docs). */
const TURN_LIMIT_EXIT = 53;

/**
 * Turns `gemini -o stream-json` lines into AgentEvents and one RunOutcome: `init` carries the
 * session id, `message` deltas are the answer, `tool_use`/`tool_result` pair by `tool_id`,
 * `result` ends the run with token stats (never a price).
 */
export const createGeminiParser = (now: () => number = Date.now) => {
  const tools = createToolCalls(now);
  const inputs = new Map<string, { name: string; input: unknown }>();
  const state = {
    sessionId: null as string | null,
    text: '',
    result: null as Line | null,
    errors: [] as string[],
  };

  const push = (raw: string): AgentEvent[] => {
    const line = parse(raw);
    if (!line) return [];
    switch (line.type) {
      case 'init':
        if (typeof line.session_id !== 'string') return [];
        state.sessionId = line.session_id;
        return [];
      case 'message': {
        if (line.role !== 'assistant' || typeof line.content !== 'string') return [];
        // A message without `delta` repeats the whole answer; only deltas are new text.
        if (line.delta !== true && state.text.endsWith(line.content)) return [];
        state.text += line.content;
        return line.content ? [{ type: 'text', text: line.content }] : [];
      }
      case 'tool_use': {
        const id = String(line.tool_id ?? '');
        if (!id) return [];
        const call = { name: String(line.tool_name ?? 'tool'), input: line.parameters ?? {} };
        inputs.set(id, call);
        return tools.start(id, call.name, call.input);
      }
      case 'tool_result': {
        const id = String(line.tool_id ?? '');
        if (!id) return [];
        const call = inputs.get(id) ?? { name: 'tool', input: {} };
        const output = String(line.output ?? line.error?.message ?? '');
        return tools.finish(id, call.name, call.input, line.status === 'error', output);
      }
      case 'error':
        state.errors.push(String(line.message ?? ''));
        return [{ type: 'error', code: 'model_retry', message: String(line.message ?? '').slice(0, 500) }];
      case 'result':
        state.result = line;
        return [];
      default:
        return [];
    }
  };

  const classify = (exit: CliExit): RunError | null => {
    if (/Error resuming session|Invalid session identifier/i.test(exit.stderrTail)) {
      return { code: 'session_not_found', message: 'The CLI has no conversation with this session id' };
    }
    const { result } = state;
    if (result?.status === 'success' && exit.exitCode === 0) return null;
    if (exit.exitCode === TURN_LIMIT_EXIT)
      return { code: 'cli_failed', message: 'The turn limit was reached' };
    if (result?.error) {
      return {
        code: 'model_error',
        message: String(result.error.message ?? 'model API error').slice(0, 500),
      };
    }
    const why = exit.spawnError ?? `gemini exited with code ${exit.exitCode ?? exit.signal ?? 'unknown'}`;
    const detail = exit.stderrTail.trim().split('\n').slice(-3).join(' ').slice(0, 500);
    return { code: 'cli_failed', message: detail ? `${why}: ${detail}` : why };
  };

  const finish = (exit: CliExit): RunOutcome => {
    const error = classify(exit);
    const stats = state.result?.stats;
    const input = num(stats?.input_tokens);
    return {
      status: error ? 'failed' : 'success',
      sessionId: error?.code === 'session_not_found' ? null : state.sessionId,
      response: state.text,
      error,
      costUsd: null,
      contextUsed: input && input > 0 ? input : null,
      contextMax: null,
      numTurns: null,
      toolCalls: tools.calls,
    };
  };

  return { push, finish, state };
};
