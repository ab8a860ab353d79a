import type { ExecutionStatus, ExecutionSummary } from '@reprise/functions/schemas';
import { A } from '@solidjs/router';
import { createSignal, For, onMount, Show } from 'solid-js';
import { errorMessage } from '~/api/api-error';
import { formatCost, formatDuration, formatTime } from '~/lib/format';
import { useServices } from '~/services';
import { StatusBadge } from './status-badge';

const STATUSES: ExecutionStatus[] = ['queued', 'running', 'success', 'failed', 'cancelled', 'timeout'];
const PAGE = 25;

export function ExecutionsTab(props: { agent: string }) {
  const { api } = useServices();
  const [items, setItems] = createSignal<ExecutionSummary[]>([]);
  const [cursor, setCursor] = createSignal<string | null>(null);
  const [status, setStatus] = createSignal<ExecutionStatus | ''>('');
  const [loading, setLoading] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  let generation = 0;

  async function load(reset: boolean) {
    const mine = reset ? ++generation : generation;
    setLoading(true);
    setError(null);
    try {
      const page = await api.listExecutions(props.agent, {
        limit: PAGE,
        status: status(),
        cursor: reset ? null : cursor(),
      });
      if (mine !== generation) return;
      setItems((prev) => (reset ? page.items : [...prev, ...page.items]));
      setCursor(page.next_cursor);
    } catch (err) {
      if (mine === generation) setError(errorMessage(err));
    } finally {
      if (mine === generation) setLoading(false);
    }
  }

  onMount(() => void load(true));

  return (
    <section aria-label="Executions">
      <div class="toolbar">
        <label>
          Status{' '}
          <select
            value={status()}
            onChange={(e) => {
              setStatus(e.currentTarget.value as ExecutionStatus | '');
              void load(true);
            }}
          >
            <option value="">All</option>
            <For each={STATUSES}>{(s) => <option value={s}>{s}</option>}</For>
          </select>
        </label>
        <button type="button" class="button" onClick={() => void load(true)} disabled={loading()}>
          Refresh
        </button>
      </div>
      <Show when={error()}>
        <p class="banner banner-error" role="alert">
          {error()}
        </p>
      </Show>
      <Show
        when={items().length > 0}
        fallback={<p class="empty">{loading() ? 'Loading executions…' : 'No executions yet.'}</p>}
      >
        <div class="table-wrap">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Message</th>
                <th scope="col">Source</th>
                <th scope="col">Started</th>
                <th scope="col">Duration</th>
                <th scope="col">Cost</th>
              </tr>
            </thead>
            <tbody>
              <For each={items()}>
                {(ex) => (
                  <tr data-testid="execution-row" data-execution-id={ex.id}>
                    <td>
                      <StatusBadge status={ex.status} testId="execution-status" />
                    </td>
                    <td class="cell-message">
                      <A href={`/executions/${ex.id}`}>{ex.message || ex.id}</A>
                      <Show when={ex.error_code}>
                        <span class="muted"> · {ex.error_code}</span>
                      </Show>
                    </td>
                    <td>{ex.source}</td>
                    <td>{formatTime(ex.created_at)}</td>
                    <td>{formatDuration(ex.duration_ms)}</td>
                    <td>{formatCost(ex.cost_usd)}</td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </div>
      </Show>
      <Show when={cursor()}>
        <button type="button" class="button" onClick={() => void load(false)} disabled={loading()}>
          {loading() ? 'Loading…' : 'Load more'}
        </button>
      </Show>
    </section>
  );
}
