import { createSignal, onCleanup } from 'solid-js';

/** The turn waits for its agent to wake (or for a free slot), with the seconds it has waited. */
export function AgentWaking(props: { for: string; since: number }) {
  const [now, setNow] = createSignal(Date.now());
  const timer = setInterval(() => setNow(Date.now()), 1000);
  onCleanup(() => clearInterval(timer));
  const seconds = () => Math.max(0, Math.floor((now() - props.since) / 1000));
  return (
    <div
      class="banner banner-info"
      data-testid={props.for === 'capacity' ? 'run-queued' : 'agent-waking'}
      role="status"
    >
      <span class="spinner" aria-hidden="true" />
      <span>
        {props.for === 'capacity'
          ? 'Waiting for a free slot on the agent…'
          : 'Waking the agent… your message is queued and runs as soon as it is up.'}{' '}
        <span class="muted">{seconds()} s</span>
      </span>
    </div>
  );
}
