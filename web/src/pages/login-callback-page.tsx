import { A, useNavigate } from '@solidjs/router';
import { createSignal, onMount, Show } from 'solid-js';
import { errorMessage } from '~/api/api-error';
import { useServices } from '~/services';
import { safeNext } from './login-page';

export function LoginCallbackPage() {
  const { auth } = useServices();
  const navigate = useNavigate();
  const [error, setError] = createSignal<string | null>(null);

  onMount(async () => {
    try {
      await auth.completeSignIn(new URL(window.location.href));
      const next = safeNext(sessionStorage.getItem('reprise.next') ?? undefined);
      sessionStorage.removeItem('reprise.next');
      navigate(next, { replace: true });
    } catch (err) {
      setError(errorMessage(err));
    }
  });

  return (
    <main class="page page-narrow">
      <Show when={error()} fallback={<p class="empty">Signing you in…</p>}>
        <p class="banner banner-error" role="alert">
          {error()}
        </p>
        <A href="/login">Try again</A>
      </Show>
    </main>
  );
}
