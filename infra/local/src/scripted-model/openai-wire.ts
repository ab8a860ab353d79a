import type { ServerResponse } from 'node:http';
import { type ContentBlock, isHarnessText, type Message } from './conversation';
import { openSse, type SpokenReply, streamPieces, textPieces } from './sse';
import { tokens } from './wire';

/** The shell tool codex 0.169 offers (`{cmd}`); the script's `Bash` call is spoken as this. */
export const CODEX_SHELL_TOOL = 'exec_command';

// biome-ignore lint/suspicious/noExplicitAny: Responses API items are untyped JSON, narrowed field by field.
type Item = Record<string, any>;

const partsText = (content: unknown): string[] =>
  typeof content === 'string'
    ? [content]
    : Array.isArray(content)
      ? content.flatMap((part: Item) => (typeof part?.text === 'string' ? [part.text] : []))
      : [];

/** Codex reports a command's exit in its output text ("Process exited with code 1"). */
export const exitCodeOf = (output: string): number | null => {
  const match = /exit(?:ed with)? code:?\s*(-?\d+)/i.exec(output);
  return match ? Number(match[1]) : null;
};

/** Codex heads a command's output with bookkeeping (chunk id, wall time, exit); the output follows `Output:`. */
const outputText = (output: unknown): string => {
  const text = typeof output === 'string' ? output : partsText(output).join('\n');
  return /\nOutput:\n([\s\S]*)$/.exec(text)?.[1] ?? text;
};

const commandOf = (args: unknown): unknown => {
  try {
    const parsed = typeof args === 'string' ? JSON.parse(args) : args;
    return { command: String(parsed?.cmd ?? parsed?.command ?? JSON.stringify(parsed)) };
  } catch {
    return { command: String(args) };
  }
};

/** Reads a Responses API `input` back as the Anthropic-shaped conversation the script understands. */
export const responsesToMessages = (input: unknown): Message[] => {
  if (!Array.isArray(input)) return [];
  const messages: Message[] = [];
  for (const item of input as Item[]) {
    if (item?.type === 'message' || (item?.role && item?.type === undefined)) {
      if (item.role !== 'user' && item.role !== 'assistant') continue;
      const texts = partsText(item.content).filter((text) => !isHarnessText(text));
      if (texts.length === 0) continue;
      messages.push({ role: item.role, content: texts.map((text) => ({ type: 'text', text })) });
    } else if (item?.type === 'function_call' && typeof item.call_id === 'string') {
      const block: ContentBlock = {
        type: 'tool_use',
        id: item.call_id,
        name: String(item.name),
        input: commandOf(item.arguments),
      };
      messages.push({ role: 'assistant', content: [block] });
    } else if (item?.type === 'function_call_output' && typeof item.call_id === 'string') {
      const code = exitCodeOf(
        typeof item.output === 'string' ? item.output : partsText(item.output).join('\n'),
      );
      const text = outputText(item.output);
      const block: ContentBlock = {
        type: 'tool_result',
        tool_use_id: item.call_id,
        content: text,
        is_error: code !== null && code !== 0,
      };
      messages.push({ role: 'user', content: [block] });
    }
  }
  return messages;
};

export const sendOpenAiError = (res: ServerResponse, status: number, message: string): void => {
  const type =
    status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type, code: type } }));
};

export interface ResponsesTurn {
  id: string;
  model: string;
  inputTokens: number;
  reply: SpokenReply;
}

const outputItem = (turn: ResponsesTurn, text: string): Item =>
  turn.reply.kind === 'text'
    ? {
        type: 'message',
        id: `${turn.id}_msg`,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text, annotations: [] }],
      }
    : {
        type: 'function_call',
        id: `${turn.id}_fc`,
        call_id: turn.reply.id,
        name: CODEX_SHELL_TOOL,
        arguments: JSON.stringify({ cmd: turn.reply.input.command }),
        status: 'completed',
      };

/** Streams one Responses API turn the way codex reads it: item added, text deltas, item done, completed. */
export const streamResponse = async (res: ServerResponse, turn: ResponsesTurn): Promise<void> => {
  const stream = openSse(res);
  const base = {
    id: turn.id,
    object: 'response',
    model: turn.model,
    created_at: Math.floor(Date.now() / 1000),
  };
  stream.send('response.created', { type: 'response.created', response: { ...base, status: 'in_progress' } });
  const { reply } = turn;
  const fullText = reply.kind === 'text' ? reply.text : '';
  const item = outputItem(turn, fullText);
  stream.send('response.output_item.added', {
    type: 'response.output_item.added',
    output_index: 0,
    item: reply.kind === 'text' ? { ...item, status: 'in_progress', content: [] } : item,
  });
  if (reply.kind === 'text') {
    const { pieces, gapMs } = textPieces(reply);
    const finished = await streamPieces(stream, pieces, gapMs, (delta) =>
      stream.send('response.output_text.delta', {
        type: 'response.output_text.delta',
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        delta,
      }),
    );
    if (!finished) return;
  }
  stream.send('response.output_item.done', { type: 'response.output_item.done', output_index: 0, item });
  const outputTokens = tokens(reply.kind === 'text' ? reply.text.length : JSON.stringify(reply.input).length);
  stream.send('response.completed', {
    type: 'response.completed',
    response: {
      ...base,
      status: 'completed',
      output: [item],
      usage: {
        input_tokens: turn.inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: turn.inputTokens + outputTokens,
      },
    },
  });
  stream.end();
};
