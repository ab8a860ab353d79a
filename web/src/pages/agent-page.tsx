import type { Agent } from '@reprise/functions/schemas';
import { A, useParams, useSearchParams } from '@solidjs/router';
import { createEffect, createResource, Match, Show, Switch, untrack } from 'solid-js';
import { AgentControls } from '~/components/agent-controls';
import { createChatController } from '~/components/chat/chat-controller';
import { ChatPanel } from '~/components/chat/chat-panel';
import { ExecutionsTab } from '~/components/executions-tab';
import { SchedulesTab } from '~/components/schedules-tab';
import { StatusBadge } from '~/components/status-badge';
import { Tabs } from '~/components/tabs';
import { PageHeading } from '~/components/ui/page-heading';
import { ErrorState, Skeleton } from '~/components/ui/page-states';
import { RelTime } from '~/components/ui/rel-time';
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
  const [agent, { mutate, refetch }] = createResource(
    () => props.name,
    (name) => api.getAgent(name),
  );
  const chat = createChatController({
    api,
    agent: untrack(() => props.name),
    // The deep link did its job once a conversation exists: from then on the URL names the chat.
    onConversation: (chatId) =>
      setSearch(
        { chatId: chatId ?? undefined, resumeSessionId: undefined, executionId: undefined },
        { replace: true },
      ),
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
  const tabHref = (id: Tab) =>
    id === 'chat' && chat.state.chatId
      ? `/agents/${props.name}?tab=chat&chatId=${chat.state.chatId}`
      : `/agents/${props.name}?tab=${id}`;

  return (
    <main class="page">
      <nav class="breadcrumbs" aria-label="Breadcrumbs">
        <A href="/agents">Agents</A> / <span aria-current="page">{props.name}</span>
      </nav>
      <Show
        when={!agent.error}
        fallback={
          <ErrorState
            page
            error={agent.error}
            what="Agent"
            backHref="/agents"
            backLabel="Back to agents"
            onRetry={() => void refetch()}
          />
        }
      >
        <Show when={agent()} fallback={<Skeleton label="Loading agent" rows={4} />}>
          {(a) => (
            <>
              <header class="page-header">
                <PageHeading title={a().name} />
                <StatusBadge status={a().status} />
                <span class="muted">
                  {a().runtime} · owner {a().owner}
                  <Show when={(a() as Agent & { last_active_at?: string | null }).last_active_at}>
                    {(at) => (
                      <>
                        {' '}
                        · active <RelTime iso={at()} />
                      </>
                    )}
                  </Show>
                </span>
                <span class="spacer" />
                <AgentControls agent={a()} onChange={(next: Agent) => mutate(next)} />
              </header>
              <Tabs
                label={`${a().name} sections`}
                selected={tab()}
                tabs={TABS.map((t) => ({ ...t, href: tabHref(t.id) }))}
              >
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
              </Tabs>
            </>
          )}
        </Show>
      </Show>
    </main>
  );
}
