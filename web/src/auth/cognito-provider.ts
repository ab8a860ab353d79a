import type { FetchLike } from '~/api/client';
import type { CognitoConfig } from '~/config';
import type { AuthProvider } from './auth-provider';
import { randomVerifier, s256Challenge } from './pkce';
import { keepTokenFresh } from './token-refresh';
import type { TokenStore } from './token-store';

const PENDING = 'reprise.pkce';

type Pending = { verifier: string; state: string };
type TokenResponse = { id_token?: string; access_token: string; expires_in: number; refresh_token?: string };

const redirectUri = () => `${location.origin}/login/callback`;

/** Cognito hosted UI, OAuth 2.0 authorization code with PKCE (a public client has no secret). */
export function createCognitoProvider(
  cfg: CognitoConfig,
  tokens: TokenStore,
  fetchFn: FetchLike,
): AuthProvider {
  const store = (body: TokenResponse) => {
    const token = cfg.tokenUse === 'id' && body.id_token ? body.id_token : body.access_token;
    tokens.set(token, body.expires_in, body.refresh_token);
  };
  // A long chat outlives Cognito's one-hour tokens: swap the refresh token for new ones ahead of
  // expiry. A refresh token Cognito refuses (revoked, expired) signs the person out everywhere.
  keepTokenFresh({
    tokens,
    refresh: async (refreshToken) => {
      const res = await fetchFn(`${cfg.domain}/oauth2/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          client_id: cfg.clientId,
          refresh_token: refreshToken,
        }).toString(),
      });
      if (res.status === 400 || res.status === 401) return tokens.clear();
      if (!res.ok) throw new Error(`Token refresh failed (${res.status})`);
      store(await res.json());
    },
  });
  return {
    kind: 'cognito',
    async signIn() {
      const pending: Pending = { verifier: randomVerifier(), state: randomVerifier(16) };
      sessionStorage.setItem(PENDING, JSON.stringify(pending));
      const url = new URL(`${cfg.domain}/oauth2/authorize`);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: cfg.clientId,
        redirect_uri: redirectUri(),
        scope: cfg.scopes,
        state: pending.state,
        code_challenge_method: 'S256',
        code_challenge: await s256Challenge(pending.verifier),
      }).toString();
      location.assign(url.toString());
      await new Promise(() => {});
    },
    async completeSignIn(url) {
      const raw = sessionStorage.getItem(PENDING);
      sessionStorage.removeItem(PENDING);
      const pending = raw ? (JSON.parse(raw) as Pending) : null;
      const code = url.searchParams.get('code');
      const error = url.searchParams.get('error_description') ?? url.searchParams.get('error');
      if (error) throw new Error(error);
      // The state ties the callback to the request this tab started (CSRF on the redirect).
      if (!pending || !code || url.searchParams.get('state') !== pending.state) {
        throw new Error('Sign-in could not be completed; please try again');
      }
      const res = await fetchFn(`${cfg.domain}/oauth2/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: cfg.clientId,
          code,
          redirect_uri: redirectUri(),
          code_verifier: pending.verifier,
        }).toString(),
      });
      if (!res.ok) throw new Error(`Sign-in failed (${res.status})`);
      store(await res.json());
    },
    signOut() {
      tokens.clear();
      const url = new URL(`${cfg.domain}/logout`);
      url.search = new URLSearchParams({
        client_id: cfg.clientId,
        logout_uri: `${location.origin}/login`,
      }).toString();
      location.assign(url.toString());
    },
  };
}
