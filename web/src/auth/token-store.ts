/**
 * The signed-in person's bearer token, in localStorage: every tab of the browser shares one
 * sign-in (a deep link opened in a new tab is signed in), and a sign-out in one tab reaches the
 * others through the `storage` event.
 */
const KEY = 'reprise.token';

type Stored = { token: string; issuedAt: number; expiresAt: number; refreshToken?: string };

export type TokenStore = {
  get(): string | null;
  /** When the current token was stored and when it expires (epoch ms); null when signed out. */
  validity(): { issuedAt: number; expiresAt: number } | null;
  /** The Cognito refresh token, when the sign-in gave one. */
  refreshToken(): string | null;
  set(token: string, expiresInSeconds: number, refreshToken?: string): void;
  clear(): void;
  /** Called when the token changes, in this tab or another one; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
};

export function createTokenStore(
  storage: Storage = localStorage,
  now: () => number = Date.now,
  events: Pick<Window, 'addEventListener' | 'removeEventListener'> | null = typeof window === 'undefined'
    ? null
    : window,
): TokenStore {
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  const read = (): Stored | null => {
    const raw = storage.getItem(KEY);
    if (!raw) return null;
    try {
      const stored = JSON.parse(raw) as Stored;
      if (stored.expiresAt > now()) return stored;
    } catch {
      // unreadable: treat as signed out
    }
    storage.removeItem(KEY);
    return null;
  };
  return {
    get: () => read()?.token ?? null,
    validity() {
      const stored = read();
      return stored ? { issuedAt: stored.issuedAt ?? stored.expiresAt, expiresAt: stored.expiresAt } : null;
    },
    refreshToken: () => read()?.refreshToken ?? null,
    set(token, expiresInSeconds, refreshToken) {
      // A refresh answer carries no new refresh token: keep the one we have.
      const keep = refreshToken ?? read()?.refreshToken;
      const at = now();
      const stored: Stored = {
        token,
        issuedAt: at,
        expiresAt: at + expiresInSeconds * 1000,
        ...(keep ? { refreshToken: keep } : {}),
      };
      storage.setItem(KEY, JSON.stringify(stored));
      notify();
    },
    clear() {
      storage.removeItem(KEY);
      notify();
    },
    onChange(listener) {
      listeners.add(listener);
      // Other tabs' writes arrive as `storage` events (a tab never gets its own).
      const onStorage = (e: StorageEvent) => {
        if (e.key === KEY || e.key === null) listener();
      };
      events?.addEventListener('storage', onStorage as EventListener);
      return () => {
        listeners.delete(listener);
        events?.removeEventListener('storage', onStorage as EventListener);
      };
    },
  };
}
