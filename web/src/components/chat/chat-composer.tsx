import { Show } from 'solid-js';

export function ChatComposer(props: {
  draft: string;
  busy: boolean;
  /** Sending is not possible (a refused deep link): typing still is. */
  blocked?: boolean;
  onDraft: (text: string) => void;
  onSend: () => void;
  onStop: () => void;
  ref?: (el: HTMLTextAreaElement) => void;
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
        ref={props.ref}
        data-testid="chat-input"
        aria-label="Message"
        placeholder="Message the agent — Enter to send, Shift+Enter for a new line"
        rows={2}
        value={props.draft}
        onInput={(e) => props.onDraft(e.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      <div class="composer-actions">
        <Show when={props.busy}>
          <button type="button" class="button" onClick={() => props.onStop()} title="Stop this turn (Esc)">
            Stop turn
          </button>
        </Show>
        <button
          type="submit"
          class="button button-primary"
          data-testid="chat-send"
          disabled={props.busy || props.blocked || !props.draft.trim()}
        >
          Send
        </button>
      </div>
    </form>
  );
}
