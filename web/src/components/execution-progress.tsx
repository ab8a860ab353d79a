import type { ExecutionStatus } from '@reprise/functions/schemas';
import { For } from 'solid-js';

type Step = { id: string; label: string };

/**
 * queued → waking agent → running → finished. The waking step only appears when the run had to
 * wait for its agent (contract 2: `waiting_for: "agent"`), so a warm run reads queued → running.
 */
export function ExecutionProgress(props: {
  status: ExecutionStatus;
  waitingFor: string | null;
  woke: boolean;
}) {
  const steps = (): Step[] => [
    { id: 'queued', label: props.waitingFor === 'capacity' ? 'Queued (waiting for a slot)' : 'Queued' },
    ...(props.woke || props.waitingFor === 'agent' ? [{ id: 'waking', label: 'Waking agent' }] : []),
    { id: 'running', label: 'Running' },
    { id: 'done', label: finishedLabel(props.status) },
  ];
  const current = () =>
    props.status === 'queued'
      ? props.waitingFor === 'agent'
        ? 'waking'
        : 'queued'
      : props.status === 'running'
        ? 'running'
        : 'done';
  const index = () => steps().findIndex((s) => s.id === current());
  return (
    <ol class={`progress progress-${props.status}`} aria-label="Progress" data-testid="execution-progress">
      <For each={steps()}>
        {(step, i) => (
          <li
            class={i() < index() ? 'progress-done' : i() === index() ? 'progress-current' : 'progress-todo'}
            aria-current={i() === index() ? 'step' : undefined}
            data-step={step.id}
          >
            {step.label}
          </li>
        )}
      </For>
    </ol>
  );
}

const finishedLabel = (status: ExecutionStatus) =>
  status === 'success'
    ? 'Succeeded'
    : status === 'failed'
      ? 'Failed'
      : status === 'cancelled'
        ? 'Cancelled'
        : status === 'timeout'
          ? 'Timed out'
          : 'Finished';
