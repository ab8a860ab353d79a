import { type Accessor, createContext, type JSX, useContext } from 'solid-js';
import type { Api } from '~/api/client';
import type { AuthProvider } from '~/auth/auth-provider';
import type { TokenStore } from '~/auth/token-store';

/** Everything a page needs from the outside world, provided once so tests can pass fakes. */
export type Services = {
  api: Api;
  auth: AuthProvider;
  tokens: TokenStore;
  /** Bumped on every 401 so the shell can send the user back to sign-in. */
  unauthorized: Accessor<number>;
};

const ServicesContext = createContext<Services>();

export function ServicesProvider(props: { value: Services; children: JSX.Element }) {
  return <ServicesContext.Provider value={props.value}>{props.children}</ServicesContext.Provider>;
}

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices() outside <ServicesProvider>');
  return services;
}
