import { Router } from '@solidjs/router';
import { createSignal } from 'solid-js';
import { createApi } from './api/client';
import { createAuthProvider } from './auth/auth-provider';
import { createTokenStore } from './auth/token-store';
import type { AppConfig } from './config';
import { AppRoutes } from './routes';
import { type Services, ServicesProvider } from './services';
import { Shell } from './shell';

export function createServices(
  config: AppConfig,
  fetchFn: typeof fetch = window.fetch.bind(window),
): Services {
  const tokens = createTokenStore();
  const [unauthorized, setUnauthorized] = createSignal(0);
  const api = createApi({
    baseUrl: config.apiUrl,
    fetch: fetchFn,
    getToken: tokens.get,
    onUnauthorized: () => {
      tokens.clear();
      setUnauthorized((n) => n + 1);
    },
  });
  // Signed out in another tab (or a refresh refused): this tab goes back to sign-in as well.
  tokens.onChange(() => {
    if (tokens.get() === null) setUnauthorized((n) => n + 1);
  });
  return { api, tokens, unauthorized, auth: createAuthProvider(config, tokens, fetchFn) };
}

export function App(props: { services: Services }) {
  return (
    <ServicesProvider value={props.services}>
      <Router root={Shell}>
        <AppRoutes />
      </Router>
    </ServicesProvider>
  );
}
