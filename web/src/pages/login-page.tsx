import { useNavigate, useSearchParams } from '@solidjs/router';
import { createSignal, Show } from 'solid-js';
import { errorMessage } from '~/api/api-error';
import { PageHeading } from '~/components/ui/page-heading';
import { useServices } from '~/services';

/** Only same-app paths: an open redirect through `?next=` would be a phishing aid. */
export const safeNext = (next: string | undefined) =>
  next?.startsWith('/') && !next.startsWith('//') ? next : '/agents';

export function LoginPage() {
  const { auth } = useServices();
  const navigate = useNavigate();
  const [search] = useSearchParams<{ next?: string }>();
  const [email, setEmail] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);

  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (auth.kind === 'cognito') sessionStorage.setItem('reprise.next', safeNext(search.next));
      await auth.signIn(email().trim());
      navigate(safeNext(search.next), { replace: true });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="page page-narrow">
      <form class="card login" onSubmit={submit}>
        <PageHeading title="Sign in">Sign in to Reprise</PageHeading>
        <Show when={auth.kind === 'dev'}>
          <label for="login-email">Email</label>
          <input
            id="login-email"
            data-testid="login-email"
            type="email"
            autocomplete="username"
            required
            value={email()}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
          <p class="muted">
            Local development sign-in: no password, the dev identity provider issues the token.
          </p>
        </Show>
        <Show when={error()}>
          <p class="banner banner-error" role="alert">
            {error()}
          </p>
        </Show>
        <button type="submit" class="button button-primary" data-testid="login-submit" disabled={busy()}>
          {busy() ? 'Signing in…' : auth.kind === 'dev' ? 'Sign in' : 'Sign in with your organisation'}
        </button>
      </form>
    </main>
  );
}
