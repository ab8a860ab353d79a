import type { Agent } from '@reprise/functions/schemas';
import { createSignal, onCleanup, Show } from 'solid-js';
import { errorMessage } from '~/api/api-error';
import { useServices } from '~/services';

const POLL_MS = 1500;
const POLL_LIMIT = 80;

export function AgentNotRunning(props: { agent: Agent; onAgentChange: (a: Agent) => void }) {
  const { api } = useServices();
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  let timer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(timer));

  const poll = (left: number) => {
    timer = setTimeout(async () => {
      try {
        const a = await api.getAgent(props.agent.name);
        props.onAgentChange(a);
        if (a.status === 'starting' && left > 0) return poll(left - 1);
      } catch (err) {
        setError(errorMessage(err));
      }
      setBusy(false);
    }, POLL_MS);
  };

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const a = await api.startAgent(props.agent.name);
      props.onAgentChange(a);
      if (a.status === 'running') setBusy(false);
      else poll(POLL_LIMIT);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  return (
    <div class="banner banner-warn" data-testid="agent-not-running" role="status">
      <span>
        {props.agent.status === 'starting'
          ? 'The agent is starting…'
          : `The agent is ${props.agent.status === 'running' ? 'not reachable' : props.agent.status}. Start it to chat.`}
        <Show when={error()}>
          <span class="error-text"> {error()}</span>
        </Show>
      </span>
      <button
        type="button"
        class="button button-primary"
        data-testid="agent-start"
        disabled={busy() || props.agent.status === 'starting'}
        onClick={() => void start()}
      >
        {busy() ? 'Starting…' : 'Start agent'}
      </button>
    </div>
  );
}
