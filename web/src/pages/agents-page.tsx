import type { Agent } from '@reprise/functions/schemas';
import { A } from '@solidjs/router';
import { createResource, For, Show } from 'solid-js';
import { AgentControls } from '~/components/agent-controls';
import { CreateAgentForm } from '~/components/create-agent-form';
import { StatusBadge } from '~/components/status-badge';
import { PageHeading } from '~/components/ui/page-heading';
import { EmptyState, ErrorState, Skeleton } from '~/components/ui/page-states';
import { RelTime } from '~/components/ui/rel-time';
import { useServices } from '~/services';

type WithActivity = Agent & { last_active_at?: string | null };

export function AgentsPage() {
  const { api } = useServices();
  const [list, { mutate, refetch }] = createResource(() => api.listAgents());
  const replace = (next: Agent) =>
    mutate((prev) => prev && { items: prev.items.map((a) => (a.name === next.name ? next : a)) });

  return (
    <main class="page">
      <header class="page-header">
        <PageHeading title="Agents" />
      </header>
      <CreateAgentForm
        create={api.createAgent}
        onCreated={(agent) => mutate((prev) => ({ items: [agent, ...(prev?.items ?? [])] }))}
      />
      <Show
        when={!list.error}
        fallback={
          <ErrorState
            error={list.error}
            what="Agents"
            backHref="/agents"
            backLabel="Reload the page"
            onRetry={() => void refetch()}
          />
        }
      >
        <Show when={list.latest} fallback={<Skeleton label="Loading agents" rows={3} />}>
          {(l) => (
            <Show
              when={l().items.length > 0}
              fallback={
                <EmptyState title="No agents you can see yet.">
                  Ask an admin to share an agent with you, or create one above.
                </EmptyState>
              }
            >
              <div class="table-wrap">
                <table class="table table-stack">
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">State</th>
                      <th scope="col">Last active</th>
                      <th scope="col">Runtime</th>
                      <th scope="col">Owner</th>
                      <th scope="col">
                        <span class="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    <For each={l().items}>
                      {(a) => (
                        <tr data-testid="agent-row" data-agent={a.name}>
                          <td data-label="Name" class="cell-title">
                            <A href={`/agents/${a.name}?tab=chat`}>{a.name}</A>
                          </td>
                          <td data-label="State">
                            <StatusBadge status={a.status} />
                          </td>
                          <td data-label="Last active">
                            <Show when={(a as WithActivity).last_active_at} fallback="—">
                              {(at) => <RelTime iso={at()} />}
                            </Show>
                          </td>
                          <td data-label="Runtime">{a.runtime}</td>
                          <td data-label="Owner">{a.owner}</td>
                          <td data-label="Actions" class="cell-actions">
                            <AgentControls agent={a} onChange={replace} />
                          </td>
                        </tr>
                      )}
                    </For>
                  </tbody>
                </table>
              </div>
            </Show>
          )}
        </Show>
      </Show>
    </main>
  );
}
