import { For, Show } from 'solid-js';
import { Markdown } from '../markdown';
import type { UiMessage } from './chat-state';
import { ToolChip } from './tool-chip';

export function ChatMessageView(props: { message: UiMessage }) {
  const m = () => props.message;
  return (
    <article
      class={`chat-message chat-${m().role}${m().status === 'cancelled' ? ' chat-stopped' : ''}`}
      data-testid="chat-message"
      data-role={m().role}
    >
      <Show when={m().role === 'assistant'} fallback={<p class="chat-user-text">{m().content}</p>}>
        <For each={m().tools}>{(chip) => <ToolChip chip={chip} />}</For>
        <Show when={m().content}>
          <Markdown text={m().content} />
        </Show>
        <Show when={m().retry}>
          {(r) => (
            <p class="notice-retry" data-testid="model-retrying" role="status">
              {r().message}
            </p>
          )}
        </Show>
        <Show when={m().status === 'streaming'}>
          <span class="typing" role="status" aria-label="The agent is responding">
            <span />
            <span />
            <span />
          </span>
        </Show>
        <Show when={m().status === 'cancelled'}>
          <p class="turn-stopped" data-testid="turn-stopped">
            {m().content ? 'Stopped — this reply is incomplete.' : 'Stopped before the agent replied.'}
          </p>
        </Show>
        <Show when={m().status === 'failed' && m().error}>
          {(err) => (
            <p class="message-error">
              Failed: {err().message} <code>{err().code}</code>
            </p>
          )}
        </Show>
      </Show>
    </article>
  );
}
