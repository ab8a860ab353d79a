import { Show } from 'solid-js';

export function ChatComposer(props: {
  draft: string;
  busy: boolean;
  onDraft: (text: string) => void;
  onSend: () => void;
  onStop: () => void;
}) {
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      props.onSend();
    } else if (e.key === 'Escape' && props.busy) {
      e.preventDefault();
      props.onStop();
    }
  };
  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSend();
      }}
    >
      <textarea
        data-testid="chat-input"
        aria-label="Message"
        placeholder="Message the agent — Enter to send, Shift+Enter for a new line"
        rows={3}
        value={props.draft}
        onInput={(e) => props.onDraft(e.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      <div class="composer-actions">
        <Show when={props.busy}>
          <button type="button" class="button" onClick={() => props.onStop()} title="Stop (Esc)">
            Stop
          </button>
        </Show>
        <button
          type="submit"
          class="button button-primary"
          data-testid="chat-send"
          disabled={props.busy || !props.draft.trim()}
        >
          Send
        </button>
      </div>
    </form>
  );
}
