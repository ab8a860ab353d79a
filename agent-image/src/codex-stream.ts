import type { AgentEvent, RunError } from '@reprise/functions/agent-events';
import type { CliExit } from './cli-process';
import { type Line, num, parseLine as parse } from './json-line';
import type { RunOutcome } from './runtime';
import { createToolCalls } from './tool-calls';

/** codex wraps every command in `bash -lc '…'`; the caller's command is what the SPA shows. */
const unwrap = (command: unknown): string => {
  const text = String(command ?? '');
  const match = /^\S*bash -l?c '([\s\S]*)'$/.exec(text);
  return match ? match[1]!.replace(/'\\''/g, "'") : text;
};

/**
 * Turns `codex exec --json` lines into AgentEvents and one RunOutcome. The thread id arrives in
 * `thread.started` — new runs, resumes and forks alike — and is announced at once as a status
 * event, so the platform stores it before the run can end.
 */
export const createCodexParser = (now: () => number = Date.now) => {
  const tools = createToolCalls(now);
  const state = {
    sessionId: null as string | null,
    lastMessage: '',
    usage: null as Line | null,
    turns: 0,
    failure: null as string | null,
    model: undefined as string | undefined,
  };

  const onItem = (type: string, item: Line): AgentEvent[] => {
    if (item.type === 'command_execution' && typeof item.id === 'string') {
      const input = { command: unwrap(item.command) };
      if (type === 'item.started') return tools.start(item.id, 'shell', input);
      if (type === 'item.completed') {
        const failed = item.status === 'failed' || (num(item.exit_code) ?? 0) !== 0;
        return tools.finish(item.id, 'shell', input, failed, String(item.aggregated_output ?? ''));
      }
      return [];
    }
    if (type === 'item.completed' && item.type === 'agent_message' && typeof item.text === 'string') {
      state.lastMessage = item.text;
      return item.text ? [{ type: 'text', text: item.text }] : [];
    }
    return [];
  };

  const push = (raw: string): AgentEvent[] => {
    const line = parse(raw);
    if (!line) return [];
    switch (line.type) {
      case 'thread.started':
        if (typeof line.thread_id !== 'string') return [];
        state.sessionId = line.thread_id;
        return [{ type: 'status', status: 'running', session_id: line.thread_id }];
      case 'item.started':
      case 'item.updated':
      case 'item.completed':
        return line.item && typeof line.item === 'object' ? onItem(line.type, line.item) : [];
      case 'turn.completed':
        state.turns += 1;
        state.usage = line.usage ?? null;
        return [];
      case 'turn.failed':
        state.failure = String(line.error?.message ?? 'The model API failed');
        return [];
      case 'error':
        // Non-fatal: codex reports each reconnect attempt before it gives up with `turn.failed`.
        return [{ type: 'error', code: 'model_retry', message: String(line.message ?? '').slice(0, 500) }];
      default:
        return [];
    }
  };

  const classify = (exit: CliExit): RunError | null => {
    if (/no rollout found|Session not found/i.test(exit.stderrTail)) {
      return { code: 'session_not_found', message: 'The CLI has no conversation with this session id' };
    }
    if (state.failure) return { code: 'model_error', message: state.failure.slice(0, 500) };
    if (state.turns > 0 && exit.exitCode === 0) return null;
    const why = exit.spawnError ?? `codex exited with code ${exit.exitCode ?? exit.signal ?? 'unknown'}`;
    const detail = exit.stderrTail.trim().split('\n').slice(-3).join(' ').slice(0, 500);
    return { code: 'cli_failed', message: detail ? `${why}: ${detail}` : why };
  };

  const finish = (exit: CliExit): RunOutcome => {
    const error = classify(exit);
    const input = num(state.usage?.input_tokens);
    return {
      status: error ? 'failed' : 'success',
      sessionId: error?.code === 'session_not_found' ? null : state.sessionId,
      response: state.lastMessage,
      error,
      // codex reports tokens, never a price.
      costUsd: null,
      contextUsed: input && input > 0 ? input : null,
      contextMax: null,
      numTurns: state.turns > 0 ? state.turns : null,
      toolCalls: tools.calls,
    };
  };

  return { push, finish, state };
};
