import type { CoreDeps } from '@reprise/functions/core/deps';
import { followEvents } from '@reprise/functions/core/event-feed';
import { pollingEventSignal } from '@reprise/functions/core/event-signals';
import type { EventSignal, WaitOptions } from '@reprise/functions/core/ports';
import { waitForTerminal } from '@reprise/functions/core/wait';
import type { ExecutionRecord } from '@reprise/functions/data/stores/execution-record';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const pace = { fastMs: 50, fastForMs: 2000, slowMs: 250 };

describe('pollingEventSignal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** How many ms of fake time pass before the wait resolves. */
  const resolvesAfter = async (wait: Promise<void>): Promise<number> => {
    let resolved = false;
    void wait.then(() => {
      resolved = true;
    });
    for (let ms = 0; ms <= 1000; ms++) {
      await vi.advanceTimersByTimeAsync(ms === 0 ? 0 : 1);
      if (resolved) return ms;
    }
    throw new Error('still waiting after 1000 ms');
  };

  it('looks again after 50 ms while the caller has waited less than two seconds', async () => {
    const signal = pollingEventSignal(pace);
    expect(await resolvesAfter(signal.wait('e', 1000, { waitedMs: 0 }))).toBe(50);
    expect(await resolvesAfter(signal.wait('e', 1000, { waitedMs: 1999 }))).toBe(50);
  });

  it('slows down to 250 ms once the caller has waited two seconds, or says nothing of it', async () => {
    const signal = pollingEventSignal(pace);
    expect(await resolvesAfter(signal.wait('e', 1000, { waitedMs: 2000 }))).toBe(250);
    expect(await resolvesAfter(signal.wait('e', 1000))).toBe(250);
  });

  it('never waits past the timeout, and stops waiting when aborted', async () => {
    const signal = pollingEventSignal(pace);
    expect(await resolvesAfter(signal.wait('e', 20, { waitedMs: 5000 }))).toBe(20);
    const abort = new AbortController();
    const wait = signal.wait('e', 1000, { abort: abort.signal, waitedMs: 5000 });
    abort.abort();
    expect(await resolvesAfter(wait)).toBe(0);
  });
});

/** A clock that only the signal moves: each wait lets 100 ms pass (less when timeoutMs is less). */
function steppedDeps(overrides: { stores: unknown }) {
  const clock = { t: 1_000_000, now: () => clock.t };
  const seen: (number | undefined)[] = [];
  const signal: EventSignal = {
    notify: () => {},
    wait: async (_key, timeoutMs, opts: WaitOptions = {}) => {
      seen.push(opts.waitedMs);
      clock.t += Math.min(timeoutMs, 100);
    },
  };
  const deps = { ...overrides, signal, clock } as unknown as CoreDeps;
  return { deps, seen, clock };
}

const running = { tenant: 't', id: 'e1', agent: 'a', status: 'running' } as ExecutionRecord;

describe('readers tell the signal how long they have waited', () => {
  it('waitForTerminal counts from the moment it began waiting', async () => {
    const { deps, seen } = steppedDeps({
      stores: {
        executions: {
          getExecutionWithContinuations: async () => ({ execution: running, continuations: [] }),
        },
      },
    });
    await waitForTerminal(deps, running, 450);
    expect(seen).toEqual([0, 100, 200, 300, 400]);
  });

  it('followEvents counts from when the caller last had news, across calls', async () => {
    const { deps, seen, clock } = steppedDeps({
      stores: {
        events: { listEventsAfter: async () => [] },
        executions: { getExecution: async () => running },
      },
    });
    const quietSince = clock.t - 10_000;
    const page = await followEvents(deps, running, 0, 300, { quietSince });
    expect(page).toEqual({ events: [], done: false });
    expect(seen).toEqual([10_000, 10_100, 10_200]);
    seen.length = 0;
    await followEvents(deps, running, 0, 200);
    expect(seen).toEqual([0, 100]);
  });
});
