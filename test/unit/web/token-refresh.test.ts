import { describe, expect, it } from 'vitest';
import { keepTokenFresh, RETRY_MS, refreshDelay, type Timers } from '~/auth/token-refresh';
import { createTokenStore } from '~/auth/token-store';

const MIN = 60_000;

/** A hand-driven clock and timer queue: the refresher's decisions, without waiting. */
const fakeTime = () => {
  let now = 1_000_000;
  const pending = new Map<number, { at: number; fn: () => void }>();
  let next = 1;
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      pending.set(next, { at: now + ms, fn });
      return next++;
    },
    clearTimeout: (h) => void pending.delete(h as number),
  };
  return {
    timers,
    now: () => now,
    /** When the one armed timer fires (relative to now), or null. */
    armedIn: () => {
      const all = [...pending.values()];
      expect(all.length).toBeLessThanOrEqual(1);
      return all[0] ? all[0].at - now : null;
    },
    advance(ms: number) {
      now += ms;
      for (const [h, t] of [...pending]) {
        if (t.at <= now) {
          pending.delete(h);
          t.fn();
        }
      }
    },
  };
};

describe('refreshDelay', () => {
  it('refreshes a one-hour token with five minutes left', () => {
    expect(refreshDelay(60 * MIN, 60 * MIN, 0)).toBe(55 * MIN);
  });
  it('leads by a fifth of a short lifetime, but never less than a minute', () => {
    expect(refreshDelay(10 * MIN, 10 * MIN, 0)).toBe(8 * MIN);
    expect(refreshDelay(2 * MIN, 2 * MIN, 0)).toBe(1 * MIN);
  });
  it('is due at once when the lead time has already passed', () => {
    expect(refreshDelay(30_000, 60 * MIN, 0)).toBe(0);
  });
});

describe('keepTokenFresh', () => {
  const setup = (refresh: (t: string) => Promise<void>) => {
    const time = fakeTime();
    const tokens = createTokenStore(sessionStorage, time.now, null);
    tokens.clear();
    const stop = keepTokenFresh({ tokens, refresh, now: time.now, timers: time.timers });
    return { time, tokens, stop };
  };

  it('arms only with a refresh token, refreshes ahead of expiry, and re-arms for the new token', async () => {
    const seen: string[] = [];
    const { time, tokens, stop } = setup(async (rt) => {
      seen.push(rt);
      tokens.set('access-2', 3600);
    });
    tokens.set('access-1', 3600);
    expect(time.armedIn()).toBeNull();
    tokens.set('access-1', 3600, 'refresh-1');
    expect(time.armedIn()).toBe(55 * MIN);
    time.advance(55 * MIN);
    await Promise.resolve();
    expect(seen).toEqual(['refresh-1']);
    expect(tokens.get()).toBe('access-2');
    expect(tokens.refreshToken()).toBe('refresh-1');
    expect(time.armedIn()).toBe(55 * MIN);
    stop();
  });

  it('retries a failed refresh while the token is still good, and stops on sign-out', async () => {
    let calls = 0;
    const { time, tokens, stop } = setup(async () => {
      calls++;
      throw new Error('network');
    });
    tokens.set('access-1', 3600, 'refresh-1');
    time.advance(55 * MIN);
    await new Promise((r) => setTimeout(r, 0));
    expect(calls).toBe(1);
    expect(time.armedIn()).toBe(RETRY_MS);
    tokens.clear();
    expect(time.armedIn()).toBeNull();
    stop();
  });
});
