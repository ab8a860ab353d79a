import type { AgentEvent, ToolCall } from '@reprise/functions/agent-events';
import type { CliExit } from './cli-process';
import { type Line, parseLine as parse } from './json-line';
import { mapResult } from './result-mapper';
import type { RunOutcome } from './runtime';

export const PREVIEW_CHARS = 2_000;

export interface ParserState {
  sessionId: string | null;
  usage: Line | null;
  modelErrorStatus: number | null;
  result: Line | null;
  text: string;
  toolCalls: ToolCall[];
}

const preview = (content: unknown): string => {
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part: Line) => (typeof part?.text === 'string' ? part.text : '')).join('\n')
        : '';
  return text.length > PREVIEW_CHARS ? text.slice(0, PREVIEW_CHARS) : text;
};

/** Turns claude's `stream-json` lines into AgentEvents and, at the end, one RunOutcome. Pure but for the clock. */
export const createStreamParser = (now: () => number = Date.now) => {
  const state: ParserState = {
    sessionId: null,
    usage: null,
    modelErrorStatus: null,
    result: null,
    text: '',
    toolCalls: [],
  };
  const started = new Map<string, number>();

  const onAssistant = (msg: Line): AgentEvent[] => {
    const message = msg.message ?? {};
    if (msg.is_api_error_message === true) state.modelErrorStatus = Number(msg.api_error_status) || 0;
    else if (message.usage && message.model !== '<synthetic>') state.usage = message.usage;
    const events: AgentEvent[] = [];
    for (const block of Array.isArray(message.content) ? message.content : []) {
      if (block?.type !== 'tool_use' || typeof block.id !== 'string') continue;
      started.set(block.id, now());
      state.toolCalls.push({
        id: block.id,
        name: String(block.name),
        input: block.input,
        is_error: false,
        output_preview: '',
      });
      events.push({ type: 'tool_use', id: block.id, name: String(block.name), input: block.input });
    }
    return events;
  };

  const onUser = (msg: Line): AgentEvent[] => {
    const content = msg.message?.content;
    const events: AgentEvent[] = [];
    for (const block of Array.isArray(content) ? content : []) {
      if (block?.type !== 'tool_result' || typeof block.tool_use_id !== 'string') continue;
      const begin = started.get(block.tool_use_id);
      const call = state.toolCalls.find((c) => c.id === block.tool_use_id);
      const event = {
        type: 'tool_result' as const,
        tool_use_id: block.tool_use_id,
        is_error: block.is_error === true,
        output_preview: preview(block.content),
        ...(begin === undefined ? {} : { duration_ms: Math.max(0, now() - begin) }),
      };
      if (call)
        Object.assign(
          call,
          { is_error: event.is_error, output_preview: event.output_preview },
          begin === undefined ? {} : { duration_ms: event.duration_ms },
        );
      events.push(event);
    }
    return events;
  };

  const push = (raw: string): AgentEvent[] => {
    const msg = parse(raw);
    if (!msg) return [];
    if (typeof msg.session_id === 'string' && msg.type === 'system' && msg.subtype === 'init')
      state.sessionId = msg.session_id;
    switch (msg.type) {
      case 'stream_event': {
        const event = msg.event ?? {};
        // Sub-agent text belongs to their tool call, not to the answer.
        if (msg.parent_tool_use_id) return [];
        if (event.type === 'message_start' && event.message?.usage) state.usage = event.message.usage;
        if (event.type === 'content_block_delta' && event.delta?.type === 'text_delta') {
          const text = String(event.delta.text ?? '');
          state.text += text;
          return text ? [{ type: 'text', text }] : [];
        }
        return [];
      }
      case 'assistant':
        return msg.parent_tool_use_id ? [] : onAssistant(msg);
      case 'user':
        return onUser(msg);
      case 'system':
        if (msg.subtype === 'api_retry') {
          const status = msg.error_status ?? 'no response';
          return [
            {
              type: 'error',
              code: 'model_retry',
              message: `Model API unavailable (${status}); retry ${msg.attempt}`,
            },
          ];
        }
        return [];
      case 'result':
        state.result = msg;
        if (typeof msg.session_id === 'string') state.sessionId = msg.session_id;
        return [];
      default:
        return [];
    }
  };

  const finish = (exit: CliExit): RunOutcome => mapResult(state, exit);
  return { push, finish, state };
};
