import { createMemo, For, Show } from 'solid-js';
import { describeCron } from './cron-describe';
import { isKnownTimezone } from './form-model';
import { formatInZone, nextRuns } from './next-runs';

const PREVIEW_RUNS = 3;

/** What the cron means and when it fires next, updated as the user types. */
export function CronPreview(props: { id: string; cron: string; timezone: string }) {
  const description = createMemo(() => describeCron(props.cron, props.timezone.trim() || 'UTC'));
  const runs = createMemo(() => {
    const zone = props.timezone.trim();
    return description() && isKnownTimezone(zone) ? nextRuns(props.cron, zone, PREVIEW_RUNS) : [];
  });
  return (
    <div id={props.id} class="cron-preview" aria-live="polite" data-testid="cron-preview">
      <Show when={description()} fallback={<p class="muted">Enter a valid cron to see when it runs.</p>}>
        <p class="cron-description" data-testid="cron-description">
          {description()}
        </p>
        <Show
          when={runs().length > 0}
          fallback={
            <Show when={isKnownTimezone(props.timezone.trim())}>
              <p class="form-error">This never matches a date (is the day in that month?).</p>
            </Show>
          }
        >
          <p class="cron-runs-label muted">Next runs</p>
          <ol class="cron-runs" data-testid="cron-next-runs">
            <For each={runs()}>
              {(at) => (
                <li>
                  <time datetime={at.toISOString()}>{formatInZone(at, props.timezone.trim())}</time>
                </li>
              )}
            </For>
          </ol>
        </Show>
      </Show>
    </div>
  );
}
