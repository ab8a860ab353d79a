import type { ServerResponse } from 'node:http';
import type { Reply } from './script';

export type SpokenReply = Exclude<Reply, { kind: 'error' }>;

/** Splits text at fixed character offsets (not words) so consumers must cope with mid-token deltas. */
export const chunks = (text: string, count: number): string[] => {
  const size = Math.max(1, Math.ceil(text.length / count));
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out.length > 0 ? out : [''];
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An SSE response that goes quiet once the client hung up. */
export const openSse = (res: ServerResponse) => {
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  return {
    get closed() {
      return closed;
    },
    send: (event: string | null, data: unknown) => {
      if (closed) return;
      res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
    },
    end: () => res.end(),
  };
};

/**
 * The text pieces of a reply and the pause between them: a `sleep:` reply spreads over its whole
 * duration (so cancel and timeout tests catch it mid-stream), others stream quickly.
 */
export const textPieces = (reply: Extract<SpokenReply, { kind: 'text' }>) => {
  const pieces = chunks(
    reply.text,
    reply.durationMs > 0 ? 10 : Math.min(8, Math.max(3, Math.ceil(reply.text.length / 16))),
  );
  return { pieces, gapMs: reply.durationMs > 0 ? reply.durationMs / pieces.length : 2 };
};

/** Streams the pieces with their gaps; false when the client went away first. */
export const streamPieces = async (
  stream: { readonly closed: boolean },
  pieces: string[],
  gapMs: number,
  sendPiece: (piece: string) => void,
): Promise<boolean> => {
  for (const piece of pieces) {
    if (stream.closed) return false;
    sendPiece(piece);
    await sleep(gapMs);
  }
  return !stream.closed;
};
