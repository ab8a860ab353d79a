import type { Agent } from '@reprise/functions/schemas';
import { A } from '@solidjs/router';
import { createResource, For, Show } from 'solid-js';
import { errorMessage } from '~/api/api-error';
import { AgentControls } from '~/components/agent-controls';
import { CreateAgentForm } from '~/components/create-agent-form';
import { StatusBadge } from '~/components/status-badge';
import { formatTime } from '~/lib/format';
import { useServices } from '~/services';

export function AgentsPage() {
  const { api } = useServices();
  const [list, { mutate }] = createResource(() => api.listAgents());
  const replace = (next: Agent) =>
    mutate((prev) => prev && { items: prev.items.map((a) => (a.name === next.name ? next : a)) });

  return (
    <main class="page">
      <header class="page-header">
        <h1>Agents</h1>
      </header>
      <CreateAgentForm
        create={api.createAgent}
        onCreated={(agent) => mutate((prev) => ({ items: [agent, ...(prev?.items ?? [])] }))}
      />
      <Show when={!list.error} fallback={<p class="banner banner-error">{errorMessage(list.error)}</p>}>
        <Show
          when={(list.latest?.items.length ?? 0) > 0}
          fallback={<p class="empty">{list.loading ? 'Loading agents…' : 'No agents you can see yet.'}</p>}
        >
          <div class="table-wrap">
            <table class="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col">Runtime</th>
                  <th scope="col">Owner</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                <For each={list.latest?.items}>
                  {(a) => (
                    <tr data-testid="agent-row" data-agent={a.name}>
                      <td>
                        <A href={`/agents/${a.name}?tab=chat`}>{a.name}</A>
                      </td>
                      <td>
                        <StatusBadge status={a.status} />
                      </td>
                      <td>{a.runtime}</td>
                      <td>{a.owner}</td>
                      <td>{formatTime(a.created_at)}</td>
                      <td>
                        <AgentControls agent={a} onChange={replace} />
                      </td>
                    </tr>
                  )}
                </For>
              </tbody>
            </table>
          </div>
        </Show>
      </Show>
    </main>
  );
}
