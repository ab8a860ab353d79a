import { For, Show } from 'solid-js';
import { Markdown } from '../markdown';
import type { UiMessage } from './chat-state';
import { ToolChip } from './tool-chip';

export function ChatMessageView(props: { message: UiMessage }) {
  const m = () => props.message;
  return (
    <article class={`chat-message chat-${m().role}`} data-testid="chat-message" data-role={m().role}>
      <Show when={m().role === 'assistant'} fallback={<p class="chat-user-text">{m().content}</p>}>
        <For each={m().tools}>{(chip) => <ToolChip chip={chip} />}</For>
        <Show when={m().content}>
          <Markdown text={m().content} />
        </Show>
        <Show when={m().status === 'streaming'}>
          <span class="typing" role="status" aria-label="The agent is responding">
            <span />
            <span />
            <span />
          </span>
        </Show>
        <Show when={m().error}>
          {(err) => (
            <p class="message-error">
              {m().status === 'cancelled' ? 'Stopped' : 'Failed'}: {err().message} <code>{err().code}</code>
            </p>
          )}
        </Show>
      </Show>
    </article>
  );
}
