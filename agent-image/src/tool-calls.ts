import type { AgentEvent, ToolCall } from '@reprise/functions/agent-events';
import { PREVIEW_CHARS } from './stream-parser';

/**
 * Pairs a CLI's tool start and finish lines into `tool_use`/`tool_result` events and the run's
 * ToolCall list, for the codex and gemini stream parsers (claude's parser reads its own blocks).
 */
export const createToolCalls = (now: () => number = Date.now) => {
  const calls: ToolCall[] = [];
  const started = new Map<string, number>();

  const start = (id: string, name: string, input: unknown): AgentEvent[] => {
    if (started.has(id)) return [];
    started.set(id, now());
    calls.push({ id, name, input, is_error: false, output_preview: '' });
    return [{ type: 'tool_use', id, name, input }];
  };

  const finish = (
    id: string,
    name: string,
    input: unknown,
    isError: boolean,
    output: string,
  ): AgentEvent[] => {
    const events = start(id, name, input);
    const call = calls.find((c) => c.id === id)!;
    const duration = Math.max(0, now() - (started.get(id) ?? now()));
    Object.assign(call, {
      is_error: isError,
      output_preview: output.slice(0, PREVIEW_CHARS),
      duration_ms: duration,
    });
    events.push({
      type: 'tool_result',
      tool_use_id: id,
      is_error: isError,
      output_preview: call.output_preview,
      duration_ms: duration,
    });
    return events;
  };

  return { start, finish, calls };
};
