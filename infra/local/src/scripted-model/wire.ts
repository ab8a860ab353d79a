import type { ServerResponse } from 'node:http';
import type { Reply } from './script';
import { chunks, textPieces } from './sse';

export { chunks };

/** Anthropic's error `type` for an HTTP status, so the CLI classifies the failure as it would in production. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

export const tokens = (chars: number): number => Math.max(1, Math.ceil(chars / 4));

export const sendError = (res: ServerResponse, status: number, message: string): void => {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ type: 'error', error: { type, message } }));
};

export interface Turn {
  id: string;
  model: string;
  inputTokens: number;
  reply: Exclude<Reply, { kind: 'error' }>;
}

const contentOf = (reply: Turn['reply']) =>
  reply.kind === 'text'
    ? { type: 'text', text: reply.text }
    : { type: 'tool_use', id: reply.id, name: reply.name, input: reply.input };

const outputChars = (reply: Turn['reply']): number =>
  reply.kind === 'text' ? reply.text.length : JSON.stringify(reply.input).length;

const stopReason = (reply: Turn['reply']) => (reply.kind === 'text' ? 'end_turn' : 'tool_use');

export const messageJson = (turn: Turn) => ({
  id: turn.id,
  type: 'message',
  role: 'assistant',
  model: turn.model,
  content: [contentOf(turn.reply)],
  stop_reason: stopReason(turn.reply),
  stop_sequence: null,
  usage: {
    input_tokens: turn.inputTokens,
    output_tokens: tokens(outputChars(turn.reply)),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Streams one assistant message as SSE; stops early when the client goes away. */
export const streamTurn = async (res: ServerResponse, turn: Turn): Promise<void> => {
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  const send = (event: string, data: unknown) => {
    if (!closed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const full = messageJson(turn);
  send('message_start', {
    type: 'message_start',
    message: { ...full, content: [], stop_reason: null, usage: { ...full.usage, output_tokens: 1 } },
  });
  const { reply } = turn;
  const start = reply.kind === 'text' ? { type: 'text', text: '' } : { ...contentOf(reply), input: {} };
  send('content_block_start', { type: 'content_block_start', index: 0, content_block: start });
  const { pieces, gapMs: gap } =
    reply.kind === 'text' ? textPieces(reply) : { pieces: chunks(JSON.stringify(reply.input), 2), gapMs: 2 };
  for (const piece of pieces) {
    if (closed) return;
    const delta =
      reply.kind === 'text'
        ? { type: 'text_delta', text: piece }
        : { type: 'input_json_delta', partial_json: piece };
    send('content_block_delta', { type: 'content_block_delta', index: 0, delta });
    await sleep(gap);
  }
  send('content_block_stop', { type: 'content_block_stop', index: 0 });
  send('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: stopReason(reply), stop_sequence: null },
    usage: { output_tokens: full.usage.output_tokens },
  });
  send('message_stop', { type: 'message_stop' });
  res.end();
};
