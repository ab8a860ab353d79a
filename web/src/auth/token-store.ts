/** The session's bearer token. sessionStorage: gone with the tab, never shared across tabs. */
const KEY = 'reprise.token';

type Stored = { token: string; expiresAt: number };

export type TokenStore = {
  get(): string | null;
  set(token: string, expiresInSeconds: number): void;
  clear(): void;
};

export function createTokenStore(
  storage: Storage = sessionStorage,
  now: () => number = Date.now,
): TokenStore {
  return {
    get() {
      const raw = storage.getItem(KEY);
      if (!raw) return null;
      try {
        const stored = JSON.parse(raw) as Stored;
        if (stored.expiresAt <= now()) {
          storage.removeItem(KEY);
          return null;
        }
        return stored.token;
      } catch {
        storage.removeItem(KEY);
        return null;
      }
    },
    set(token, expiresInSeconds) {
      storage.setItem(KEY, JSON.stringify({ token, expiresAt: now() + expiresInSeconds * 1000 }));
    },
    clear() {
      storage.removeItem(KEY);
    },
  };
}
