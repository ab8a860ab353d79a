import { createResource, For, Show } from 'solid-js';
import { errorMessage } from '~/api/api-error';
import { formatTime } from '~/lib/format';
import { useServices } from '~/services';

export function SchedulesTab(props: { agent: string }) {
  const { api } = useServices();
  const [list] = createResource(
    () => props.agent,
    (name) => api.listSchedules(name),
  );
  return (
    <section aria-label="Schedules">
      <Show when={!list.error} fallback={<p class="banner banner-error">{errorMessage(list.error)}</p>}>
        <Show
          when={(list()?.items.length ?? 0) > 0}
          fallback={
            <p class="empty">{list.loading ? 'Loading schedules…' : 'No schedules for this agent.'}</p>
          }
        >
          <div class="table-wrap">
            <table class="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Cron</th>
                  <th scope="col">Timezone</th>
                  <th scope="col">Enabled</th>
                  <th scope="col">Next run</th>
                </tr>
              </thead>
              <tbody>
                <For each={list()?.items}>
                  {(s) => (
                    <tr data-testid="schedule-row">
                      <td>{s.name}</td>
                      <td>
                        <code>{s.cron}</code>
                      </td>
                      <td>{s.timezone}</td>
                      <td>{s.enabled ? 'Yes' : 'No'}</td>
                      <td>{s.enabled ? formatTime(s.next_run_at) : '—'}</td>
                    </tr>
                  )}
                </For>
              </tbody>
            </table>
          </div>
        </Show>
      </Show>
    </section>
  );
}
