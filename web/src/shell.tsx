import type { Me } from '@reprise/functions/schemas';
import { A, Navigate, type RouteSectionProps, useLocation, useNavigate } from '@solidjs/router';
import { createEffect, createResource, type JSX, on, Show } from 'solid-js';
import { markNavigation } from './components/ui/page-heading';
import { useServices } from './services';

export function Shell(props: RouteSectionProps) {
  const { api, auth, tokens, unauthorized } = useServices();
  const navigate = useNavigate();
  const location = useLocation();
  const signedIn = () => {
    unauthorized();
    void location.pathname;
    return tokens.get() !== null;
  };
  const [me] = createResource(signedIn, () => api.me().catch((): Me | null => null));

  // A new path is a new page: its heading takes focus when it renders. Tab and filter changes
  // (the query string) keep focus where the person is.
  createEffect(on(() => location.pathname, markNavigation, { defer: true }));

  createEffect(
    on(
      unauthorized,
      () => {
        if (!location.pathname.startsWith('/login')) {
          navigate(`/login?next=${encodeURIComponent(location.pathname + location.search)}`, {
            replace: true,
          });
        }
      },
      { defer: true },
    ),
  );

  return (
    <>
      <a class="skip-link" href="#content">
        Skip to content
      </a>
      <header class="topbar">
        <A href="/agents" class="brand">
          Reprise
        </A>
        <Show when={signedIn()}>
          <nav aria-label="Main">
            <A href="/agents">Agents</A>
          </nav>
          <span class="spacer" />
          <span class="muted topbar-email">{me.latest?.email}</span>
          <button
            type="button"
            class="button button-small"
            onClick={() => {
              auth.signOut();
              navigate('/login', { replace: true });
            }}
          >
            Sign out
          </button>
        </Show>
      </header>
      <div id="content" tabIndex={-1}>
        {props.children}
      </div>
    </>
  );
}

/** Pages behind sign-in; without a token, back to /login with the way home in `next`. */
export function RequireAuth(props: { children?: JSX.Element }) {
  const { tokens } = useServices();
  const location = useLocation();
  return (
    <Show
      when={location.pathname && tokens.get()}
      fallback={<Navigate href={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} />}
    >
      {props.children}
    </Show>
  );
}
