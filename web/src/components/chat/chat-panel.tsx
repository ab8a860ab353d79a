import type { Agent } from '@reprise/functions/schemas';
import { createEffect, For, on, onMount, Show } from 'solid-js';
import { AgentNotRunning } from './agent-not-running';
import { ChatComposer } from './chat-composer';
import type { ChatController } from './chat-controller';
import { ChatMessageView } from './chat-message-view';
import { bannerVisible } from './chat-state';
import { ResumeBanner } from './resume-banner';
import { SessionSelect } from './session-select';

export function ChatPanel(props: { chat: ChatController; agent: Agent; onAgentChange: (a: Agent) => void }) {
  const chat = props.chat;
  const s = chat.state;
  let log: HTMLDivElement | undefined;

  onMount(() => void chat.loadChats());

  createEffect(
    on(
      () => [s.messages.length, s.messages[s.messages.length - 1]?.content],
      () => log?.scrollTo?.({ top: log.scrollHeight }),
    ),
  );

  const notRunning = () => props.agent.status !== 'running' || s.problem?.kind === 'agent_not_running';

  return (
    <section class="chat" aria-label="Chat">
      <div class="toolbar">
        <SessionSelect
          chats={chat.chats()}
          value={s.chatId}
          onSelect={(id) => (id ? void chat.selectChat(id) : chat.newChat())}
        />
        <button type="button" class="button" data-testid="new-chat" onClick={() => chat.newChat()}>
          New chat
        </button>
      </div>
      <Show when={bannerVisible(s)}>
        <ResumeBanner executionId={s.resume?.executionId ?? null} onDismiss={chat.dismissBanner} />
      </Show>
      <Show when={notRunning()}>
        <AgentNotRunning
          agent={props.agent}
          onAgentChange={(a) => {
            props.onAgentChange(a);
            if (a.status === 'running') chat.clearProblem();
          }}
        />
      </Show>
      <div class="chat-log" ref={log} role="log" aria-live="polite">
        <For each={s.messages}>{(m) => <ChatMessageView message={m} />}</For>
        <Show when={s.messages.length === 0}>
          <p class="empty">
            {s.resume
              ? 'Ask the agent about that execution — what went wrong, or what to do next.'
              : 'Start a conversation with the agent.'}
          </p>
        </Show>
      </div>
      <Show when={s.problem?.kind === 'session_expired' ? s.problem : null}>
        {(p) => (
          <div class="banner banner-warn" data-testid="session-expired" role="alert">
            <span>This conversation can no longer be continued: {p().message}</span>
            <button type="button" class="button" data-testid="start-fresh" onClick={() => chat.newChat()}>
              Start fresh
            </button>
          </div>
        )}
      </Show>
      <Show when={s.problem?.kind === 'error' ? s.problem : null}>
        {(p) => (
          <div class="banner banner-error" data-testid="chat-error" role="alert">
            {p().message}
          </div>
        )}
      </Show>
      <ChatComposer
        draft={s.draft}
        busy={s.turn !== null}
        onDraft={chat.setDraft}
        onSend={() => void chat.send()}
        onStop={() => void chat.stop()}
      />
    </section>
  );
}
