import type { ChatSummary } from '@reprise/functions/schemas';
import { For } from 'solid-js';

export function SessionSelect(props: {
  chats: ChatSummary[];
  value: string | null;
  onSelect: (id: string | null) => void;
}) {
  return (
    <label class="session-select">
      <span class="visually-hidden">Conversation</span>
      <select data-testid="session-select" onChange={(e) => props.onSelect(e.currentTarget.value || null)}>
        <option value="" selected={!props.value}>
          New conversation
        </option>
        <For each={props.chats}>
          {(c) => (
            <option value={c.id} selected={c.id === props.value}>
              {c.title || 'Untitled'} · {c.turns} {c.turns === 1 ? 'turn' : 'turns'}
            </option>
          )}
        </For>
      </select>
    </label>
  );
}
