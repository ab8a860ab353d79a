import type { ExecutionSource, ExecutionStatus, ExecutionSummary } from '@reprise/functions/schemas';
import { A } from '@solidjs/router';
import { createSignal, For, onMount, Show } from 'solid-js';
import { errorMessage } from '~/api/api-error';
import { cleanErrorMessage } from '~/lib/clean-error';
import { formatCost, formatDuration, shortId } from '~/lib/format';
import { usePeople } from '~/lib/people';
import { useServices } from '~/services';
import { StatusBadge } from './status-badge';
import { EmptyState, Skeleton } from './ui/page-states';
import { RelTime } from './ui/rel-time';

const STATUSES: ExecutionStatus[] = ['queued', 'running', 'success', 'failed', 'cancelled', 'timeout'];
const SOURCES: ExecutionSource[] = ['manual', 'chat', 'schedule', 'api', 'agent'];
const PAGE = 25;

export function ExecutionsTab(props: { agent: string }) {
  const { api } = useServices();
  const people = usePeople();
  const [items, setItems] = createSignal<ExecutionSummary[]>([]);
  const [cursor, setCursor] = createSignal<string | null>(null);
  const [status, setStatus] = createSignal<ExecutionStatus | ''>('');
  const [source, setSource] = createSignal<ExecutionSource | ''>('');
  const [owner, setOwner] = createSignal('');
  const [loading, setLoading] = createSignal(false);
  const [loaded, setLoaded] = createSignal(false);
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
        source: source(),
        ownerUserId: owner(),
        cursor: reset ? null : cursor(),
      });
      if (mine !== generation) return;
      setItems((prev) => (reset ? page.items : [...prev, ...page.items]));
      setCursor(page.next_cursor);
    } catch (err) {
      if (mine === generation) setError(cleanErrorMessage(errorMessage(err)));
    } finally {
      if (mine === generation) {
        setLoading(false);
        setLoaded(true);
      }
    }
  }

  onMount(() => void load(true));
  const filtered = () => status() !== '' || source() !== '' || owner() !== '';

  return (
    <section aria-label="Executions" class="executions">
      <RunBox agent={props.agent} onStarted={() => void load(true)} />
      <div class="toolbar filters">
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
        <label>
          Source{' '}
          <select
            data-testid="filter-source"
            value={source()}
            onChange={(e) => {
              setSource(e.currentTarget.value as ExecutionSource | '');
              void load(true);
            }}
          >
            <option value="">All</option>
            <For each={SOURCES}>{(s) => <option value={s}>{s}</option>}</For>
          </select>
        </label>
        <label>
          By{' '}
          <select
            data-testid="filter-person"
            value={owner()}
            onChange={(e) => {
              setOwner(e.currentTarget.value);
              void load(true);
            }}
          >
            <option value="">Anyone</option>
            <For each={people.list()}>{(u) => <option value={u.user_id}>{u.email}</option>}</For>
          </select>
        </label>
        <span class="spacer" />
        <button type="button" class="button" onClick={() => void load(true)} disabled={loading()}>
          Refresh
        </button>
      </div>
      <Show when={error()}>
        {(msg) => (
          <div class="banner banner-error" role="alert">
            <span>Could not load executions: {msg()}</span>
            <button type="button" class="button" onClick={() => void load(true)}>
              Retry
            </button>
          </div>
        )}
      </Show>
      <Show
        when={items().length > 0}
        fallback={
          <Show when={loaded() && !loading()} fallback={<Skeleton label="Loading executions" rows={4} />}>
            <Show when={!error()}>
              <EmptyState title={filtered() ? 'No executions match these filters.' : 'No executions yet.'}>
                {filtered()
                  ? 'Clear a filter to see more.'
                  : 'Start one with the message box above, from the Chat tab, or on a schedule.'}
              </EmptyState>
            </Show>
          </Show>
        }
      >
        <div class="table-wrap">
          <table class="table table-stack">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Message</th>
                <th scope="col">By</th>
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
                    <td data-label="Status">
                      <StatusBadge status={ex.status} testId="execution-status" />
                    </td>
                    <td class="cell-message" data-label="Message">
                      <span>
                        <A href={`/executions/${ex.id}`} title={ex.message}>
                          {ex.message || shortId(ex.id)}
                        </A>
                        <Show when={ex.error_code}>
                          <span class="muted"> · {ex.error_code}</span>
                        </Show>
                      </span>
                    </td>
                    <td data-label="By" data-testid="execution-by">
                      {people.name(ex.owner_user_id)}
                    </td>
                    <td data-label="Source">{ex.source}</td>
                    <td data-label="Started">
                      <RelTime iso={ex.created_at} />
                    </td>
                    <td data-label="Duration">{formatDuration(ex.duration_ms)}</td>
                    <td data-label="Cost">{formatCost(ex.cost_usd)}</td>
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

/** Start a run from the UI: the same POST /task an API client makes, as a standalone execution. */
function RunBox(props: { agent: string; onStarted: () => void }) {
  const { api } = useServices();
  const [message, setMessage] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [started, setStarted] = createSignal<string | null>(null);
  const submit = async (e: SubmitEvent) => {
    e.preventDefault();
    const text = message().trim();
    if (!text) return;
    setBusy(true);
    setError(null);
    try {
      api.wakeAgent(props.agent).catch(() => {});
      const accepted = await api.runTask(props.agent, { message: text });
      setStarted(accepted.execution_id);
      setMessage('');
      props.onStarted();
    } catch (err) {
      setError(cleanErrorMessage(errorMessage(err)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card run-box" onSubmit={submit} aria-labelledby="run-box-title">
      <h2 id="run-box-title" class="run-box-title">
        Start a run
      </h2>
      <div class="run-box-row">
        <label class="visually-hidden" for="run-message">
          Message for the agent
        </label>
        <textarea
          id="run-message"
          data-testid="run-message"
          rows={2}
          placeholder="What should the agent do? e.g. run: make test"
          value={message()}
          onInput={(e) => setMessage(e.currentTarget.value)}
        />
        <button
          type="submit"
          class="button button-primary"
          data-testid="run-submit"
          disabled={busy() || !message().trim()}
        >
          {busy() ? 'Starting…' : 'Run'}
        </button>
      </div>
      <Show when={started()}>
        {(id) => (
          <p class="muted" role="status">
            Started <A href={`/executions/${id()}`}>execution {shortId(id())}</A>.
          </p>
        )}
      </Show>
      <Show when={error()}>
        <p class="error-text" role="alert">
          {error()}
        </p>
      </Show>
    </form>
  );
}
