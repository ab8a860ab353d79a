import type { ExecutionStatus } from '@reprise/functions/schemas';
import { createSignal, For, onCleanup, onMount, Show } from 'solid-js';
import { followEvents } from '~/api/events';
import { cleanErrorMessage } from '~/lib/clean-error';
import { useServices } from '~/services';

type Line = { kind: 'text' | 'tool'; text: string };

/**
 * Follows a queued or running execution's events; reports what the run is waiting for (from
 * `status` events) and calls onDone when its result arrives.
 */
export function LiveOutput(props: {
  executionId: string;
  status: ExecutionStatus;
  onWaiting?: (waitingFor: string | null, status: string) => void;
  onDone: () => void;
}) {
  const { api } = useServices();
  const [lines, setLines] = createSignal<Line[]>([]);
  const [text, setText] = createSignal('');
  const ctrl = new AbortController();
  onCleanup(() => ctrl.abort());

  onMount(async () => {
    try {
      await followEvents(api, props.executionId, {
        signal: ctrl.signal,
        onEvent: ({ data }) => {
          if (data.type === 'status')
            props.onWaiting?.((data as { waiting_for?: string | null }).waiting_for ?? null, data.status);
          else if (data.type === 'text') setText((t) => t + data.text);
          else if (data.type === 'tool_use')
            setLines((l) => [...l, { kind: 'tool', text: `▶ ${data.name}` }]);
          else if (data.type === 'error')
            setLines((l) => [...l, { kind: 'text', text: `⚠ ${cleanErrorMessage(data.message)}` }]);
        },
      });
    } catch {
      // Fall through to a refetch: the stored execution is the truth.
    }
    if (!ctrl.signal.aborted) props.onDone();
  });

  return (
    <section class="card" aria-labelledby="live-output-title">
      <h2 id="live-output-title">Live output</h2>
      <For each={lines()}>{(l) => <p class={l.kind === 'tool' ? 'muted' : ''}>{l.text}</p>}</For>
      <Show when={text()} fallback={<p class="muted">Waiting for output…</p>}>
        <pre class="live-text">{text()}</pre>
      </Show>
    </section>
  );
}
