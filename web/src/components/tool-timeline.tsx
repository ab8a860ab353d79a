import type { Execution } from '@reprise/functions/schemas';
import { For, Show } from 'solid-js';

type ToolCall = Execution['tool_calls'][number];

export function ToolTimeline(props: { calls: ToolCall[] }) {
  return (
    <Show when={props.calls.length > 0} fallback={<p class="empty">No tool calls.</p>}>
      <ol class="timeline">
        <For each={props.calls}>
          {(call, i) => (
            <li class={call.is_error ? 'timeline-error' : ''}>
              <details>
                <summary>
                  <span class="muted">{i() + 1}.</span> <strong>{call.name}</strong>
                  <Show when={call.is_error}>
                    <span class="badge badge-failed">error</span>
                  </Show>
                </summary>
                <h3 class="timeline-label">Input</h3>
                <pre>{JSON.stringify(call.input, null, 2)}</pre>
                <h3 class="timeline-label">Output</h3>
                <pre>{call.output_preview || '(no output)'}</pre>
              </details>
            </li>
          )}
        </For>
      </ol>
    </Show>
  );
}
