import type { Agent } from '@reprise/functions/schemas';
import { createSignal, Show } from 'solid-js';
import { errorMessage } from '~/api/api-error';
import { useServices } from '~/services';

/**
 * Start / "Stop agent" for one agent; the server answers 202 with the agent's new state. Stopping
 * ends every running turn of every person, so it asks first.
 */
export function AgentControls(props: { agent: Agent; onChange: (a: Agent) => void }) {
  const { api } = useServices();
  const [busy, setBusy] = createSignal(false);
  const [confirming, setConfirming] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  let stopButton: HTMLButtonElement | undefined;
  const act = async (fn: (name: string) => Promise<Agent>) => {
    setBusy(true);
    setError(null);
    setConfirming(false);
    try {
      props.onChange(await fn(props.agent.name));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const running = () => props.agent.status === 'running' || props.agent.status === 'starting';
  return (
    <span class="controls">
      <Show
        when={running()}
        fallback={
          <button
            type="button"
            class="button button-small"
            disabled={busy()}
            onClick={() => void act(api.startAgent)}
          >
            Start
          </button>
        }
      >
        <Show
          when={confirming()}
          fallback={
            <button
              type="button"
              class="button button-small"
              data-testid="agent-stop"
              ref={stopButton}
              disabled={busy()}
              onClick={() => setConfirming(true)}
            >
              Stop agent
            </button>
          }
        >
          <span class="confirm">
            <span class="confirm-text">Stop it? Running turns end.</span>
            <button
              type="button"
              class="button button-small button-danger"
              data-testid="agent-stop-confirm"
              ref={(el) => queueMicrotask(() => el.focus())}
              onClick={() => void act(api.stopAgent)}
            >
              Stop agent
            </button>
            <button
              type="button"
              class="button button-small"
              onClick={() => {
                setConfirming(false);
                queueMicrotask(() => stopButton?.focus());
              }}
            >
              Keep running
            </button>
          </span>
        </Show>
      </Show>
      <Show when={error()}>
        <span class="error-text" role="alert">
          {error()}
        </span>
      </Show>
    </span>
  );
}
