import { createMemoryHistory, MemoryRouter } from '@solidjs/router';
import { render } from '@solidjs/testing-library';
import { createSignal } from 'solid-js';
import { createApi, type FetchLike } from '~/api/client';
import { createDevProvider } from '~/auth/dev-provider';
import { createTokenStore } from '~/auth/token-store';
import { AppRoutes } from '~/routes';
import { ServicesProvider } from '~/services';
import { Shell } from '~/shell';

/** The whole app on a memory router, signed in unless told otherwise, talking to a fake fetch. */
export function renderApp(url: string, fetch: FetchLike, opts: { signedIn?: boolean } = {}) {
  const history = createMemoryHistory();
  history.set({ value: url, replace: true, scroll: false });
  const tokens = createTokenStore(sessionStorage);
  if (opts.signedIn !== false) tokens.set('test-token', 3600);
  const [unauthorized, setUnauthorized] = createSignal(0);
  const api = createApi({
    baseUrl: '',
    fetch,
    getToken: tokens.get,
    onUnauthorized: () => {
      tokens.clear();
      setUnauthorized((n) => n + 1);
    },
  });
  const auth = createDevProvider('', tokens, fetch);
  const result = render(() => (
    <ServicesProvider value={{ api, auth, tokens, unauthorized }}>
      <MemoryRouter history={history} root={Shell}>
        <AppRoutes />
      </MemoryRouter>
    </ServicesProvider>
  ));
  const go = (to: string) => history.set({ value: to, scroll: false });
  return { ...result, history, go, tokens, location: () => history.get() };
}
