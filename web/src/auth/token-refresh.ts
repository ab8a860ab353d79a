import type { TokenStore } from './token-store';

/** Refresh when a fifth of the token's life is left, but never less than this before it expires. */
const MIN_LEAD_MS = 60_000;
const MAX_LEAD_MS = 5 * 60_000;
/** After a failed refresh, try again this soon (the token may still be good for a while). */
export const RETRY_MS = 30_000;

/**
 * How long to wait before refreshing a token that expires at `expiresAt` after a lifetime of
 * `lifetimeMs`: a fifth of its lifetime ahead (1–5 minutes), at once if already due.
 */
export function refreshDelay(expiresAt: number, lifetimeMs: number, now: number): number {
  const lead = Math.min(MAX_LEAD_MS, Math.max(MIN_LEAD_MS, lifetimeMs / 5));
  return Math.max(0, expiresAt - lead - now);
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * Keeps the stored token fresh: one timer, re-armed whenever the token changes (here or in
 * another tab, so the tab that refreshes first moves every tab's timer). Stops when signed out.
 */
export function keepTokenFresh(options: {
  tokens: TokenStore;
  refresh: (refreshToken: string) => Promise<void>;
  now?: () => number;
  timers?: Timers;
}): () => void {
  const now = options.now ?? Date.now;
  const timers: Timers = options.timers ?? {
    setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
    clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  };
  let handle: unknown = null;
  const arm = (delay: number) => {
    if (handle !== null) timers.clearTimeout(handle);
    handle = timers.setTimeout(fire, delay);
  };
  const schedule = () => {
    const validity = options.tokens.validity();
    if (validity === null || !options.tokens.refreshToken()) {
      if (handle !== null) timers.clearTimeout(handle);
      handle = null;
      return;
    }
    arm(refreshDelay(validity.expiresAt, validity.expiresAt - validity.issuedAt, now()));
  };
  const fire = () => {
    handle = null;
    const refreshToken = options.tokens.refreshToken();
    if (!refreshToken) return;
    options.refresh(refreshToken).catch(() => {
      const expiresAt = options.tokens.validity()?.expiresAt ?? 0;
      if (expiresAt > now()) arm(Math.min(RETRY_MS, expiresAt - now()));
    });
  };
  const unsubscribe = options.tokens.onChange(schedule);
  schedule();
  return () => {
    unsubscribe();
    if (handle !== null) timers.clearTimeout(handle);
  };
}
