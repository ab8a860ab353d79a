import { EventEmitter } from 'node:events';
import type { EventSignal, WaitOptions } from './ports';

/** Same-process readers and writers (the local stack): readers wake the moment events land. */
export function inProcessEventSignal(): EventSignal {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    notify: (id) => {
      emitter.emit(id);
    },
    wait: (id, timeoutMs, { abort }: WaitOptions = {}) =>
      new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          emitter.off(id, done);
          abort?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, timeoutMs);
        emitter.once(id, done);
        abort?.addEventListener('abort', done, { once: true });
      }),
  };
}

export interface PollingPace {
  /** Between looks while the caller has waited less than `fastForMs`. */
  readonly fastMs: number;
  readonly fastForMs: number;
  /** Between looks after that. */
  readonly slowMs: number;
}

/**
 * A warm chat turn ends 100–200 ms after it was sent, and a streaming run emits in bursts: a
 * 250 ms poll alone would add up to 250 ms to every turn. Looking every 50 ms for the first two
 * seconds of a wait costs at most 40 small consistent reads more per waiter, then it slows down.
 */
export const DEFAULT_POLLING_PACE: PollingPace = { fastMs: 50, fastForMs: 2000, slowMs: 250 };

/** Separate processes (API and runner Lambdas): readers poll the table, often at first. */
export function pollingEventSignal(pace: PollingPace = DEFAULT_POLLING_PACE): EventSignal {
  return {
    notify: () => {},
    wait: (_id, timeoutMs, { abort, waitedMs }: WaitOptions = {}) =>
      new Promise<void>((resolve) => {
        const interval = (waitedMs ?? pace.fastForMs) < pace.fastForMs ? pace.fastMs : pace.slowMs;
        const timer = setTimeout(resolve, Math.min(interval, timeoutMs));
        abort?.addEventListener(
          'abort',
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      }),
  };
}
