import { EventEmitter } from 'node:events';
import type { EventSignal } from './ports';

/** Same-process readers and writers (the local stack): readers wake the moment events land. */
export function inProcessEventSignal(): EventSignal {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    notify: (id) => {
      emitter.emit(id);
    },
    wait: (id, timeoutMs, abort) =>
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

/** Separate processes (API and runner Lambdas): readers poll the table at a short interval. */
export function pollingEventSignal(intervalMs = 250): EventSignal {
  return {
    notify: () => {},
    wait: (_id, timeoutMs, abort) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(intervalMs, timeoutMs));
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
