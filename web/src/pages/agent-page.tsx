import type { Agent } from '@reprise/functions/schemas';
import { A, useParams, useSearchParams } from '@solidjs/router';
import { createEffect, createResource, For, Match, Show, Switch, untrack } from 'solid-js';
import { errorMessage } from '~/api/api-error';
import { AgentControls } from '~/components/agent-controls';
import { createChatController } from '~/components/chat/chat-controller';
import { ChatPanel } from '~/components/chat/chat-panel';
import { ExecutionsTab } from '~/components/executions-tab';
import { SchedulesTab } from '~/components/schedules-tab';
import { StatusBadge } from '~/components/status-badge';
import { useServices } from '~/services';

type Tab = 'chat' | 'executions' | 'schedules';
const TABS: { id: Tab; label: string }[] = [
  { id: 'chat', label: 'Chat' },
  { id: 'executions', label: 'Executions' },
  { id: 'schedules', label: 'Schedules' },
];

type Search = { tab?: string; resumeSessionId?: string; executionId?: string; chatId?: string };

export function AgentPage() {
  const params = useParams<{ name: string }>();
  // Keyed: another agent's page is another conversation, never a carry-over of this one.
  return (
    <Show when={params.name} keyed>
      {(name) => <AgentView name={name} />}
    </Show>
  );
}

function AgentView(props: { name: string }) {
  const { api } = useServices();
  const [search, setSearch] = useSearchParams<Search>();
  const [agent, { mutate }] = createResource(
    () => props.name,
    (name) => api.getAgent(name),
  );
  const chat = createChatController({
    api,
    agent: untrack(() => props.name),
    // Leaving resume mode drops the deep link too, so a later tab switch cannot re-enter it.
    onLeaveResume: () => setSearch({ resumeSessionId: undefined, executionId: undefined }, { replace: true }),
  });

  // Runs on every route change, not only on mount: arriving with a deep link while this page is
  // already alive must still enter resume mode.
  createEffect(() => {
    const sessionId = search.resumeSessionId;
    const executionId = search.executionId ?? null;
    const chatId = search.chatId;
    untrack(() => {
      if (sessionId) chat.enterResume({ sessionId, executionId });
      else if (chatId && chat.state.chatId !== chatId) void chat.selectChat(chatId);
    });
  });

  const tab = (): Tab => (search.tab === 'executions' || search.tab === 'schedules' ? search.tab : 'chat');

  return (
    <main class="page">
      <nav class="breadcrumbs" aria-label="Breadcrumbs">
        <A href="/agents">Agents</A> / <span>{props.name}</span>
      </nav>
      <Show when={!agent.error} fallback={<p class="banner banner-error">{errorMessage(agent.error)}</p>}>
        <Show when={agent()} fallback={<p class="empty">Loading agent…</p>}>
          {(a) => (
            <>
              <header class="page-header">
                <h1>{a().name}</h1>
                <StatusBadge status={a().status} />
                <span class="muted">
                  {a().runtime} · owner {a().owner}
                </span>
                <AgentControls agent={a()} onChange={(next: Agent) => mutate(next)} />
              </header>
              <div class="tabs" role="tablist">
                <For each={TABS}>
                  {(t) => (
                    <A
                      href={`/agents/${props.name}?tab=${t.id}`}
                      role="tab"
                      aria-selected={tab() === t.id}
                      class={tab() === t.id ? 'tab tab-active' : 'tab'}
                      end
                    >
                      {t.label}
                    </A>
                  )}
                </For>
              </div>
              <Switch>
                <Match when={tab() === 'chat'}>
                  <ChatPanel chat={chat} agent={a()} onAgentChange={(next) => mutate(next)} />
                </Match>
                <Match when={tab() === 'executions'}>
                  <ExecutionsTab agent={props.name} />
                </Match>
                <Match when={tab() === 'schedules'}>
                  <SchedulesTab agent={props.name} />
                </Match>
              </Switch>
            </>
          )}
        </Show>
      </Show>
    </main>
  );
}
