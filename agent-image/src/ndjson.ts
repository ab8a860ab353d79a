import type { AgentEvent } from '@reprise/functions/agent-events';
import { sanitizeDeep } from '@reprise/functions/sanitizer';

export interface EventChannel {
  readable: ReadableStream<Uint8Array>;
  write(event: AgentEvent): void;
  close(): void;
}

/**
 * One NDJSON line per event, each sanitized on the way out. When the HTTP client goes away the
 * run is deliberately NOT stopped: the platform runner owns the connection, and a run that
 * finishes anyway still archives its transcript, so the turn can be continued later.
 */
export const createEventChannel = (): EventChannel => {
  const encoder = new TextEncoder();
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let open = true;
  const readable = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => {
      open = false;
    },
  });
  return {
    readable,
    write: (event) => {
      if (!open || !controller) return;
      controller.enqueue(encoder.encode(`${JSON.stringify(sanitizeDeep(event))}\n`));
    },
    close: () => {
      if (!open || !controller) return;
      open = false;
      controller.close();
    },
  };
};
