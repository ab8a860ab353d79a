import type { Agent } from '@reprise/functions/schemas';
import { createSignal, Show } from 'solid-js';
import { errorMessage } from '~/api/api-error';
import { useServices } from '~/services';

/** Start/Stop for one agent; the server answers 202 with the agent's new state. */
export function AgentControls(props: { agent: Agent; onChange: (a: Agent) => void }) {
  const { api } = useServices();
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const act = async (fn: (name: string) => Promise<Agent>) => {
    setBusy(true);
    setError(null);
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
        <button
          type="button"
          class="button button-small"
          disabled={busy()}
          onClick={() => void act(api.stopAgent)}
        >
          Stop
        </button>
      </Show>
      <Show when={error()}>
        <span class="error-text" role="alert">
          {error()}
        </span>
      </Show>
    </span>
  );
}
