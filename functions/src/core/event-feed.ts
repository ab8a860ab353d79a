import type { ExecutionRecord } from '../data/stores/execution-record';
import { isTerminal } from '../data/stores/execution-record';
import type { EventsPage, ExecutionEvent } from '../lib/schemas/executions';
import type { CoreDeps } from './deps';

/**
 * Events after `after`, waiting up to `waitMs` for the first new one. `done` is true once the
 * terminal `result` event has been delivered (or the run ended without one, e.g. swept as lost).
 */
export async function followEvents(
  deps: CoreDeps,
  e: ExecutionRecord,
  after: number,
  waitMs: number,
  abort?: AbortSignal,
): Promise<EventsPage> {
  const deadline = deps.clock.now() + waitMs;
  for (;;) {
    const events = await deps.stores.events.listEventsAfter(e.tenant, e.id, after);
    if (events.some((ev) => ev.type === 'result')) return { events: upToResult(events), done: true };
    if (events.length > 0) return { events, done: false };
    const current = await deps.stores.executions.getExecution(e.tenant, e.id);
    if (!current || isTerminal(current.status)) {
      // The result event is written right after the status; read once more before calling it done.
      const late = await deps.stores.events.listEventsAfter(e.tenant, e.id, after);
      return { events: upToResult(late), done: true };
    }
    const left = deadline - deps.clock.now();
    if (left <= 0 || abort?.aborted) return { events: [], done: false };
    await deps.signal.wait(e.id, Math.min(left, 1000), abort);
  }
}

const upToResult = (events: ExecutionEvent[]) => {
  const end = events.findIndex((ev) => ev.type === 'result');
  return end < 0 ? events : events.slice(0, end + 1);
};
