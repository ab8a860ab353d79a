import type { ChatSummary } from '@reprise/functions/schemas';
import { createResource, For, Show } from 'solid-js';
import { plural, shortId } from '~/lib/format';
import { usePeople } from '~/lib/people';
import { useServices } from '~/services';
import { RelTime } from '../ui/rel-time';

/** The conversation switcher: one link per chat, so the URL (and a reload) names the chat. */
export function ChatList(props: {
  agent: string;
  chats: ChatSummary[];
  selected: string | null;
  loading: boolean;
}) {
  const { api } = useServices();
  const people = usePeople();
  const [me] = createResource(() => api.me().catch(() => null));
  const stop = () => (props.chats.some((c) => c.id === props.selected) ? props.selected : props.chats[0]?.id);
  const onKeyDown = (e: KeyboardEvent) => {
    const links = [...(e.currentTarget as HTMLElement).querySelectorAll<HTMLElement>('a')];
    const i = links.indexOf(document.activeElement as HTMLElement);
    const next =
      e.key === 'ArrowDown'
        ? i + 1
        : e.key === 'ArrowUp'
          ? i - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? links.length - 1
              : null;
    if (next === null || i < 0) return;
    e.preventDefault();
    links[Math.max(0, Math.min(links.length - 1, next))]?.focus();
  };
  return (
    <nav class="chat-side" aria-label="Conversations" data-testid="session-select">
      <Show
        when={props.chats.length > 0}
        fallback={
          <p class="muted chat-side-empty">
            {props.loading
              ? 'Loading conversations…'
              : 'No conversations yet. Your first message starts one.'}
          </p>
        }
      >
        {/* One tab stop for the whole list (arrow keys move within it), so the message box stays close. */}
        <ul class="chat-list" data-testid="chat-list" onKeyDown={onKeyDown}>
          <For each={props.chats}>
            {(c) => (
              <li>
                {/* A plain link: the router's <A> marks every chat current, since only the query differs. */}
                <a
                  href={`/agents/${props.agent}?tab=chat&chatId=${c.id}`}
                  class="chat-list-item"
                  data-testid="chat-list-item"
                  data-chat-id={c.id}
                  aria-current={c.id === props.selected ? 'true' : undefined}
                  tabIndex={c.id === stop() ? 0 : -1}
                >
                  <span class="chat-list-title">{c.title || 'Untitled'}</span>
                  <span class="chat-list-meta">
                    <Show when={c.owner_user_id && me() && c.owner_user_id !== me()?.user_id}>
                      <span>{people.name(c.owner_user_id)} · </span>
                    </Show>
                    <RelTime iso={c.updated_at} /> · {plural(c.turns, 'turn')}
                    <Show when={c.resumed_from_execution_id}>
                      {(id) => <span> · from run {shortId(id())}</span>}
                    </Show>
                  </span>
                </a>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </nav>
  );
}
