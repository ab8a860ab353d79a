import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { CoreDeps } from '../core/deps';
import { followEvents, terminalEvent } from '../core/event-feed';
import type { ExecutionRecord } from '../data/stores/execution-record';
import type { ExecutionEvent } from '../lib/schemas/executions';
import type { AppEnv } from './env';

const HEARTBEAT_MS = 15_000;

/**
 * `text/event-stream` of an execution's events. Each carries `id: <seq>` so a client that drops can
 * re-join with Last-Event-ID and get the rest with no gap and no duplicate. The stream ends after
 * the terminal event — every time, even for a client that re-joins at or past it (it gets the
 * `result` again), so an EventSource is always told to stop; closing it never affects the run.
 */
export function sseResponse(c: Context<AppEnv>, deps: CoreDeps, e: ExecutionRecord, after: number) {
  c.header('cache-control', 'no-cache, no-transform');
  c.header('x-accel-buffering', 'no');
  return streamSSE(c, async (stream) => {
    const abort = new AbortController();
    stream.onAbort(() => abort.abort());
    let cursor = after;
    let news = deps.clock.now();
    const send = (ev: ExecutionEvent) =>
      stream.writeSSE({ id: String(ev.seq), event: ev.type, data: JSON.stringify(ev.data) });
    while (!abort.signal.aborted) {
      // followEvents returns empty only after waiting a full heartbeat interval with nothing new.
      const page = await followEvents(deps, e, cursor, HEARTBEAT_MS, {
        abort: abort.signal,
        quietSince: news,
      });
      if (page.events.length > 0) news = deps.clock.now();
      for (const ev of page.events) {
        await send(ev);
        cursor = ev.seq;
      }
      if (page.done) {
        if (page.events.at(-1)?.type !== 'result') await send(await terminalEvent(deps, e));
        return;
      }
      if (page.events.length === 0 && !abort.signal.aborted) await stream.write(': heartbeat\n\n');
    }
  });
}
