import type { FetchLike } from '~/api/client';
import type { AppConfig } from '~/config';
import { createCognitoProvider } from './cognito-provider';
import { createDevProvider } from './dev-provider';
import type { TokenStore } from './token-store';

/** Sign-in behind one interface: the dev identity provider locally, Cognito's hosted UI in AWS. */
export type AuthProvider = {
  kind: 'dev' | 'cognito';
  /** Dev: exchanges the email for a token. Cognito: redirects to the hosted UI (never resolves). */
  signIn(email?: string): Promise<void>;
  /** Cognito only: finishes the authorization-code flow on `/login/callback`. */
  completeSignIn(url: URL): Promise<void>;
  signOut(): void;
};

export function createAuthProvider(config: AppConfig, tokens: TokenStore, fetchFn: FetchLike): AuthProvider {
  return config.auth.kind === 'cognito'
    ? createCognitoProvider(config.auth, tokens, fetchFn)
    : createDevProvider(config.apiUrl, tokens, fetchFn);
}
