import type { Agent } from '@reprise/functions/schemas';
import { A } from '@solidjs/router';
import { createEffect, For, on, onCleanup, onMount, Show } from 'solid-js';
import { shortId } from '~/lib/format';
import { AgentNotRunning } from './agent-not-running';
import { AgentWaking } from './agent-waking';
import { ChatComposer } from './chat-composer';
import type { ChatController } from './chat-controller';
import { ChatList } from './chat-list';
import { ChatMessageView } from './chat-message-view';
import { bannerVisible } from './chat-state';
import { ResumeBanner, ResumeRefused } from './resume-banner';

/** How close to the bottom (px) still counts as "following along". */
const STICK_PX = 48;

export function ChatPanel(props: { chat: ChatController; agent: Agent; onAgentChange: (a: Agent) => void }) {
  const chat = props.chat;
  const s = chat.state;
  let log: HTMLDivElement | undefined;
  let input: HTMLTextAreaElement | undefined;
  let following = true;

  onMount(() => {
    chat.wake();
    void chat.loadChats();
  });

  // On a desktop the log scrolls inside its box; on a phone it grows with the page and the window
  // scrolls (the composer stays pinned below it).
  const logScrolls = () => log !== undefined && log.scrollHeight > log.clientHeight;
  // Keep up with new text unless the person scrolled up to read.
  createEffect(
    on(
      () => [s.messages.length, s.messages[s.messages.length - 1]?.content, s.chatId],
      () => {
        if (!following || !log || s.messages.length === 0) return;
        if (logScrolls()) log.scrollTo?.({ top: log.scrollHeight });
        else window.scrollTo?.({ top: document.documentElement.scrollHeight });
      },
    ),
  );
  const onScroll = () => {
    if (!log) return;
    following = logScrolls()
      ? log.scrollHeight - log.scrollTop - log.clientHeight < STICK_PX
      : log.getBoundingClientRect().bottom <= window.innerHeight + STICK_PX;
  };
  onMount(() => {
    window.addEventListener('scroll', onScroll, { passive: true });
    onCleanup(() => window.removeEventListener('scroll', onScroll));
  });

  const check = () => s.resumeCheck;
  const refused = () => {
    const c = check();
    return c.state === 'refused' ? c.reason : null;
  };

  return (
    <div class="chat-layout">
      <div class="chat-side-wrap">
        <div class="chat-side-head">
          <h2 class="chat-side-title">Conversations</h2>
          <button
            type="button"
            class="button button-small"
            data-testid="new-chat"
            onClick={() => chat.newChat()}
          >
            New chat
          </button>
        </div>
        <ChatList
          agent={props.agent.name}
          chats={chat.chats()}
          selected={s.chatId}
          loading={chat.chatsLoading()}
        />
      </div>
      <section class="chat" aria-label="Chat">
        <Show when={s.resume && check().state === 'checking'}>
          <p class="banner banner-info" role="status">
            Checking execution <code>{shortId(s.resume?.executionId ?? '')}</code>…
          </p>
        </Show>
        <Show when={refused()}>
          {(reason) => (
            <ResumeRefused
              executionId={s.resume?.executionId ?? null}
              reason={reason()}
              onNewChat={() => {
                chat.newChat();
                input?.focus();
              }}
            />
          )}
        </Show>
        <Show when={bannerVisible(s) && check().state === 'ok'}>
          <ResumeBanner
            executionId={s.resume?.executionId ?? null}
            onDismiss={() => {
              chat.dismissBanner();
              // The banner's button is gone: continue where the person was heading, the message box.
              input?.focus();
            }}
          />
        </Show>
        <Show when={!s.resume && s.continuedFrom}>
          {(from) => (
            <p class="muted chat-origin">
              Continued from execution{' '}
              <A href={`/executions/${from()}`}>
                <code>{shortId(from())}</code>
              </A>
            </p>
          )}
        </Show>
        <Show when={s.problem?.kind === 'agent_not_running'}>
          <AgentNotRunning
            agent={props.agent}
            onAgentChange={(a) => {
              props.onAgentChange(a);
              if (a.status === 'running') chat.clearProblem();
            }}
          />
        </Show>
        <div
          class="chat-log"
          ref={log}
          role="log"
          aria-live="polite"
          aria-label="Conversation"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling log must take focus to be scrolled by keyboard (axe scrollable-region-focusable)
          tabIndex={0}
          onScroll={onScroll}
        >
          <For each={s.messages}>{(m) => <ChatMessageView message={m} />}</For>
          <Show when={s.messages.length === 0}>
            <p class="empty">
              {s.resume
                ? 'Ask the agent about that execution — what went wrong, or what to do next.'
                : 'Start a conversation with the agent.'}
            </p>
          </Show>
        </div>
        <Show when={s.waiting}>{(w) => <AgentWaking for={w().for} since={w().since} />}</Show>
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
          ref={(el) => {
            input = el;
          }}
          draft={s.draft}
          busy={s.turn !== null}
          blocked={refused() !== null}
          onDraft={chat.setDraft}
          onSend={() => void chat.send()}
          onStop={() => void chat.stop()}
        />
      </section>
    </div>
  );
}
