import { A } from '@solidjs/router';
import { For, type JSX, Show } from 'solid-js';
import { errorMessage, isApiError } from '~/api/api-error';
import { cleanErrorMessage } from '~/lib/clean-error';
import { PageHeading } from './page-heading';

/** Grey bars shaped like the content that is on its way; hidden from screen readers' reading. */
export function Skeleton(props: { rows?: number; label: string }) {
  return (
    <div class="skeleton" role="status" aria-busy="true">
      <span class="visually-hidden">{props.label}</span>
      <For each={Array.from({ length: props.rows ?? 3 })}>
        {() => <div class="skeleton-row" aria-hidden="true" />}
      </For>
    </div>
  );
}

/** An empty list that says what to do next. */
export function EmptyState(props: { title: string; children?: JSX.Element }) {
  return (
    <div class="empty-state">
      <p class="empty-title">{props.title}</p>
      <Show when={props.children}>
        <div class="muted">{props.children}</div>
      </Show>
    </div>
  );
}

/**
 * A failed load as a page of its own: not-found says so (unknown and forbidden look the same),
 * anything else offers a retry; both lead back.
 */
export function ErrorState(props: {
  error: unknown;
  what: string;
  backHref: string;
  backLabel: string;
  onRetry?: () => void;
  /** Set when the error replaces the whole page, so it carries the page's heading. */
  page?: boolean;
}) {
  const notFound = () => isApiError(props.error) && props.error.status === 404;
  const title = () =>
    notFound() ? `${props.what} not found` : `Could not load the ${props.what.toLowerCase()}`;
  return (
    <section class="error-state" data-testid="error-state" role={notFound() ? undefined : 'alert'}>
      <Show when={props.page} fallback={<h2>{title()}</h2>}>
        <PageHeading title={title()} />
      </Show>
      <p class="muted">
        {notFound()
          ? `It does not exist, or you do not have access to it.`
          : cleanErrorMessage(errorMessage(props.error))}
      </p>
      <div class="form-actions">
        <Show when={!notFound() && props.onRetry}>
          <button type="button" class="button button-primary" onClick={() => props.onRetry?.()}>
            Retry
          </button>
        </Show>
        <A class="button" href={props.backHref}>
          {props.backLabel}
        </A>
      </div>
    </section>
  );
}
