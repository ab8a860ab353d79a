import { Show } from 'solid-js';
import { formatTokens } from '~/lib/format';

export function ContextBar(props: { used: number | null; max: number | null }) {
  const pct = () => (props.used && props.max ? Math.min(100, Math.round((props.used / props.max) * 100)) : 0);
  return (
    <Show when={props.used !== null && props.max} fallback={<span>—</span>}>
      <div class="context">
        <div class="context-bar" aria-hidden="true">
          <div class="context-fill" style={{ width: `${pct()}%` }} />
        </div>
        <span class="muted">
          {formatTokens(props.used ?? 0)} / {formatTokens(props.max ?? 0)} tokens ({pct()}%)
        </span>
      </div>
    </Show>
  );
}
