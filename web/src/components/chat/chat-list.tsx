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
        <ul class="chat-list" data-testid="chat-list">
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
