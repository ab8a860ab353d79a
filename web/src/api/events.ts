import type { AgentEvent } from '@reprise/functions/agent-events';
import type { EventsPage, EventType } from '@reprise/functions/schemas';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ApiError } from './api-error';
import type { Api } from './client';

export type StreamEvent = { seq: number; type: EventType; data: AgentEvent };

export type FollowOptions = {
  onEvent: (ev: StreamEvent) => void;
  signal: AbortSignal;
  /** Sequence number already seen; 0 replays from the start. */
  after?: number;
  /** Back-off before re-joining, by consecutive failure count. */
  retryDelaysMs?: number[];
};

const RETRY_MS = [500, 1000, 2000, 4000];
const SSE_ATTEMPTS = 3;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

/** The API may send the stored event (`{seq,type,data}`) or the bare agent event as `data:`. */
export function toStreamEvent(msg: EventSourceMessage, fallbackSeq: number): StreamEvent | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(msg.data);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const obj = parsed as Record<string, unknown>;
  const idSeq = msg.id ? Number(msg.id) : Number.NaN;
  if (typeof obj.seq === 'number' && obj.data && typeof obj.data === 'object') {
    return { seq: obj.seq, type: obj.type as EventType, data: obj.data as AgentEvent };
  }
  const type = (msg.event && msg.event !== 'message' ? msg.event : obj.type) as EventType;
  return { seq: Number.isFinite(idSeq) ? idSeq : fallbackSeq, type, data: { ...obj, type } as AgentEvent };
}

const fatal = (err: unknown) => err instanceof ApiError && err.status >= 400 && err.status < 500;

/**
 * Follows an execution's events until its `result`: SSE over fetch (EventSource cannot send an
 * Authorization header), re-joining with `Last-Event-ID` when the stream drops, and falling back
 * to the JSON long-poll when streaming is not available (proxies that buffer, old gateways).
 * Resolves true when the terminal event was seen, false when aborted.
 */
export async function followEvents(api: Api, executionId: string, opts: FollowOptions): Promise<boolean> {
  const { signal } = opts;
  let last = opts.after ?? 0;
  let failures = 0;
  let useSse = true;
  let finished = false;
  const delays = opts.retryDelaysMs ?? RETRY_MS;
  const base = `/api/executions/${encodeURIComponent(executionId)}/events`;

  const deliver = (ev: StreamEvent) => {
    if (ev.seq <= last && ev.seq !== 0) return;
    last = Math.max(last, ev.seq);
    opts.onEvent(ev);
    if (ev.type === 'result') finished = true;
  };

  const poll = async (waitSeconds: number): Promise<boolean> => {
    const res = await api.send(`${base}?format=json&after=${last}&wait=${waitSeconds}`, { signal });
    const page = (await res.json()) as EventsPage;
    for (const ev of page.events) deliver({ seq: ev.seq, type: ev.type, data: ev.data as AgentEvent });
    return page.done || finished;
  };

  while (!signal.aborted && !finished) {
    try {
      if (useSse) {
        const headers: Record<string, string> = { Accept: 'text/event-stream' };
        if (last > 0) headers['Last-Event-ID'] = String(last);
        const res = await api.send(base, { headers, signal });
        if (!res.body || !res.headers.get('content-type')?.includes('text/event-stream')) {
          useSse = false;
          continue;
        }
        await readStream(res.body, signal, (msg) => {
          const ev = toStreamEvent(msg, last + 1);
          if (ev) deliver(ev);
          return finished;
        });
        if (finished) break;
        // The server also closes after a run that ended without a result event (it never
        // reached an agent); a proxy may close early. The JSON feed tells the two apart.
        if (await poll(0)) return true;
        failures = 0;
      } else {
        if (await poll(20)) return true;
        failures = 0;
        continue;
      }
    } catch (err) {
      if (signal.aborted) return false;
      if (fatal(err)) throw err;
      failures++;
      if (useSse && failures >= SSE_ATTEMPTS) useSse = false;
    }
    if (!finished) await sleep(delays[Math.min(failures, delays.length - 1)] ?? 1000, signal);
  }
  return finished;
}

/** Reads a `text/event-stream` body with eventsource-parser until onMessage says stop. */
async function readStream(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  onMessage: (msg: EventSourceMessage) => boolean,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let stopped = false;
  const parser = createParser({
    onEvent: (msg) => {
      if (!stopped && onMessage(msg)) stopped = true;
    },
  });
  const stop = () => void reader.cancel().catch(() => {});
  signal.addEventListener('abort', stop);
  try {
    while (!stopped) {
      const { done, value } = await reader.read();
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    stop();
  } finally {
    signal.removeEventListener('abort', stop);
  }
}
