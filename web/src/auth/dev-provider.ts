import type { DevTokenResponse } from '@reprise/functions/schemas';
import { ApiError } from '~/api/api-error';
import type { FetchLike } from '~/api/client';
import type { AuthProvider } from './auth-provider';
import type { TokenStore } from './token-store';

export function createDevProvider(apiUrl: string, tokens: TokenStore, fetchFn: FetchLike): AuthProvider {
  return {
    kind: 'dev',
    async signIn(email) {
      const res = await fetchFn(`${apiUrl}/auth/dev/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      if (!res.ok) throw await ApiError.from(res);
      const body = (await res.json()) as DevTokenResponse;
      tokens.set(body.access_token, body.expires_in);
    },
    async completeSignIn() {
      throw new Error('The dev identity provider has no redirect callback');
    },
    signOut: () => tokens.clear(),
  };
}
