import type { ExecutionRecord } from '../data/stores/execution-record';
import { isTerminal } from '../data/stores/execution-record';
import type { EventsPage, ExecutionEvent } from '../lib/schemas/executions';
import type { CoreDeps } from './deps';

/**
 * How long after a run's terminal status its `result` event may still be on its way: the runner
 * stores the status first and the event right after.
 */
const LATE_RESULT_MS = 3000;

export interface FollowOptions {
  readonly abort?: AbortSignal | undefined;
  /** When the caller last had news of the run (a stream between heartbeats); default: now. */
  readonly quietSince?: number;
}

/**
 * Events after `after`, waiting up to `waitMs` for the first new one. `done` is true once the
 * terminal `result` event has been delivered, or the run is terminal and nothing is left to
 * deliver — also when the caller already has everything (`after` at or past the last event), so a
 * reconnecting client is always told to stop.
 */
export async function followEvents(
  deps: CoreDeps,
  e: ExecutionRecord,
  after: number,
  waitMs: number,
  { abort, quietSince = deps.clock.now() }: FollowOptions = {},
): Promise<EventsPage> {
  const deadline = deps.clock.now() + waitMs;
  for (;;) {
    const events = await deps.stores.events.listEventsAfter(e.tenant, e.id, after);
    if (events.some((ev) => ev.type === 'result')) return { events: upToResult(events), done: true };
    if (events.length > 0) return { events, done: false };
    const current = await deps.stores.executions.getExecution(e.tenant, e.id);
    if (!current || isTerminal(current.status)) {
      const late = await deps.stores.events.listEventsAfter(e.tenant, e.id, after);
      if (late.some((ev) => ev.type === 'result')) return { events: upToResult(late), done: true };
      if (late.length > 0) return { events: late, done: false };
      if (!current || !(await resultMayStillCome(deps, current, abort))) return { events: [], done: true };
      continue;
    }
    const left = deadline - deps.clock.now();
    if (left <= 0 || abort?.aborted) return { events: [], done: false };
    await deps.signal.wait(e.id, Math.min(left, 1000), { abort, waitedMs: deps.clock.now() - quietSince });
  }
}

/** True (after waiting a moment) while a finished run's result event may still be written. */
async function resultMayStillCome(deps: CoreDeps, e: ExecutionRecord, abort?: AbortSignal) {
  const last = await deps.stores.events.lastEvent(e.tenant, e.id);
  if (last?.type === 'result') return false;
  const left = Date.parse(e.finished_at ?? e.created_at) + LATE_RESULT_MS - deps.clock.now();
  if (left <= 0 || abort?.aborted) return false;
  // The runner stores the result event right after the status: look again soon.
  await deps.signal.wait(e.id, Math.min(left, 500), { abort, waitedMs: 0 });
  return true;
}

/**
 * The event that ends a stream of a finished run: its stored `result` (sent again to a client that
 * re-joined past it), or one built from the record when the run ended without storing one.
 */
export async function terminalEvent(deps: CoreDeps, e: ExecutionRecord): Promise<ExecutionEvent> {
  const [last, current] = await Promise.all([
    deps.stores.events.lastEvent(e.tenant, e.id),
    deps.stores.executions.getExecution(e.tenant, e.id),
  ]);
  if (last?.type === 'result') return last;
  const r = current ?? e;
  return {
    seq: last?.seq ?? 0,
    type: 'result',
    data: {
      type: 'result',
      status: r.status,
      session_id: r.claude_session_id,
      response: r.response ?? '',
      error: r.error,
      cost_usd: r.cost_usd,
      context_used: r.context_used,
      context_max: r.context_max,
      num_turns: r.num_turns,
      tool_calls: r.tool_calls,
      duration_ms: r.duration_ms ?? 0,
    },
    created_at: r.finished_at ?? r.created_at,
  };
}

const upToResult = (events: ExecutionEvent[]) => {
  const end = events.findIndex((ev) => ev.type === 'result');
  return end < 0 ? events : events.slice(0, end + 1);
};
