import type { Schedule, TaskAccepted } from '@reprise/functions/schemas';
import { A } from '@solidjs/router';
import { createSignal, For, Match, onCleanup, onMount, Show, Switch } from 'solid-js';
import { createStore, reconcile } from 'solid-js/store';
import { errorMessage } from '~/api/api-error';
import { isActive, shortId } from '~/lib/format';
import { useServices } from '~/services';
import { ScheduleForm } from './schedules/schedule-form';
import { ScheduleRow } from './schedules/schedule-row';
import { EmptyState, Skeleton } from './ui/page-states';

type Editing = { kind: 'new' } | { kind: 'edit'; schedule: Schedule } | null;
type RunStarted = { schedule: string; accepted: TaskAccepted; status: string };

const RUN_POLL_MS = 1500;

export function SchedulesTab(props: { agent: string }) {
  const { api } = useServices();
  // A store reconciled by id keeps each row (and the focus inside it) alive across updates.
  const [list, setList] = createStore<{ items: Schedule[] }>({ items: [] });
  const setItems = (items: Schedule[]) => setList('items', reconcile(items, { key: 'id' }));
  const [loaded, setLoaded] = createSignal(false);
  const [loading, setLoading] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [editing, setEditing] = createSignal<Editing>(null);
  const [started, setStarted] = createSignal<RunStarted | null>(null);
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(pollTimer));

  /** The "queued" notice follows its run until it finishes, so it never goes stale. */
  function follow(run: RunStarted) {
    clearTimeout(pollTimer);
    setStarted(run);
    if (!isActive(run.status)) return;
    pollTimer = setTimeout(async () => {
      if (started()?.accepted.execution_id !== run.accepted.execution_id) return;
      try {
        const exec = await api.getExecution(run.accepted.execution_id);
        if (started()?.accepted.execution_id === run.accepted.execution_id)
          follow({ ...run, status: exec.status });
      } catch {
        // The link still leads to the run; stop following quietly.
      }
    }, RUN_POLL_MS);
  }

  async function load() {
    setLoading(true);
    setError(null);
    try {
      setItems((await api.listSchedules(props.agent)).items);
      setLoaded(true);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setLoading(false);
    }
  }
  onMount(() => void load());

  const editedSchedule = () => {
    const e = editing();
    return e?.kind === 'edit' ? e.schedule : null;
  };
  const replace = (next: Schedule) => {
    setError(null);
    setItems(list.items.map((s) => (s.id === next.id ? next : s)));
  };
  let newButton!: HTMLButtonElement;
  // The form or row that held focus is gone; put it somewhere sensible rather than on <body>.
  const refocus = () => queueMicrotask(() => newButton.focus());
  const closeForm = () => {
    setEditing(null);
    refocus();
  };
  const saved = () => {
    closeForm();
    // Reload rather than splice in: the list is the server's order and its next-run times.
    void load();
  };

  return (
    <section aria-label="Schedules" class="schedules">
      <div class="toolbar">
        <button
          ref={newButton}
          type="button"
          class="button button-primary"
          disabled={editing()?.kind === 'new'}
          onClick={() => setEditing({ kind: 'new' })}
        >
          New schedule
        </button>
        <button type="button" class="button" onClick={() => void load()} disabled={loading()}>
          Refresh
        </button>
      </div>
      <Switch>
        <Match when={editing()?.kind === 'new'}>
          <ScheduleForm agent={props.agent} onSaved={saved} onCancel={closeForm} />
        </Match>
        <Match when={editedSchedule()} keyed>
          {(schedule) => (
            <ScheduleForm agent={props.agent} schedule={schedule} onSaved={saved} onCancel={closeForm} />
          )}
        </Match>
      </Switch>
      <Show when={error()}>
        <p class="banner banner-error" role="alert">
          {error()}
        </p>
      </Show>
      <Show when={started()}>
        {(run) => (
          <p class="banner banner-info" role="status" data-testid="schedule-run-started">
            <span>
              Started “{run().schedule}”:{' '}
              <A href={`/executions/${run().accepted.execution_id}`} data-testid="schedule-run-link">
                execution {shortId(run().accepted.execution_id)}
              </A>{' '}
              <span data-testid="schedule-run-status">({run().status})</span>
            </span>
            <button
              type="button"
              class="icon-button"
              aria-label="Dismiss"
              onClick={() => {
                setStarted(null);
                refocus();
              }}
            >
              ×
            </button>
          </p>
        )}
      </Show>
      <Show
        when={list.items.length > 0}
        fallback={
          <Show when={loaded()} fallback={<Skeleton label="Loading schedules…" rows={2} />}>
            {/* While the form is open it is the next step; the empty line would only repeat it. */}
            <Show when={!editing()}>
              <EmptyState title="No schedules for this agent.">
                New schedule runs a message on a cron, in the time zone you choose.
              </EmptyState>
            </Show>
          </Show>
        }
      >
        <div class="table-wrap">
          <table class="table table-stack schedules-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">When</th>
                <th scope="col">Time zone</th>
                <th scope="col">Enabled</th>
                <th scope="col">Next run</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              <For each={list.items}>
                {(s) => (
                  <ScheduleRow
                    agent={props.agent}
                    schedule={s}
                    onEdit={() => setEditing({ kind: 'edit', schedule: s })}
                    onChanged={replace}
                    onDeleted={() => {
                      setItems(list.items.filter((x) => x.id !== s.id));
                      refocus();
                    }}
                    onRan={(accepted) => {
                      setError(null);
                      follow({ schedule: s.name, accepted, status: accepted.status });
                    }}
                    onError={(err) => setError(errorMessage(err))}
                  />
                )}
              </For>
            </tbody>
          </table>
        </div>
      </Show>
    </section>
  );
}
