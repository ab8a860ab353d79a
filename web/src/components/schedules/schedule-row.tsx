import type { Schedule, TaskAccepted } from '@reprise/functions/schemas';
import { A } from '@solidjs/router';
import { createSignal, Show } from 'solid-js';
import { useServices } from '~/services';
import { describeCron } from './cron-describe';
import { formatInZone } from './next-runs';

type Props = {
  agent: string;
  schedule: Schedule;
  onEdit: () => void;
  onChanged: (next: Schedule) => void;
  onDeleted: () => void;
  onRan: (accepted: TaskAccepted) => void;
  onError: (err: unknown) => void;
};

/** One schedule with its actions; every write goes through here and reports back up. */
export function ScheduleRow(props: Props) {
  const { api } = useServices();
  const [busy, setBusy] = createSignal(false);
  const [confirming, setConfirming] = createSignal(false);
  /** Set when "Keep" backs out of deleting, so focus returns to the Delete button it came from. */
  let keepFocus = false;
  const s = () => props.schedule;

  const act = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (err) {
      props.onError(err);
    } finally {
      setBusy(false);
    }
  };
  const toggle = () =>
    !busy() &&
    act(async () => {
      const { name, cron, timezone, message, timeout_seconds } = s();
      const enabled = !s().enabled;
      props.onChanged(
        await api.updateSchedule(s().id, { name, cron, timezone, message, timeout_seconds, enabled }),
      );
    });
  const runNow = () => act(async () => props.onRan(await api.runSchedule(s().id)));
  const remove = () =>
    act(async () => {
      await api.deleteSchedule(s().id);
      props.onDeleted();
    });

  return (
    <tr data-testid="schedule-row" data-schedule-id={s().id}>
      <td data-label="Name">{s().name}</td>
      <td data-label="When">
        <code>{s().cron}</code>
        <div class="muted schedule-description">{describeCron(s().cron, s().timezone) ?? s().cron}</div>
      </td>
      <td data-label="Time zone">{s().timezone}</td>
      <td data-label="Enabled">
        <label class="switch">
          <input
            type="checkbox"
            role="switch"
            checked={s().enabled}
            aria-checked={s().enabled}
            // Not disabled while saving: that would drop keyboard focus; a second click waits instead.
            aria-busy={busy()}
            onChange={(e) => {
              // The row shows the server's answer, not the click, until the PUT returns.
              e.currentTarget.checked = s().enabled;
              void toggle();
            }}
            data-testid="schedule-enabled"
          />
          <span class="visually-hidden">Enabled: {s().name}</span>
          <span aria-hidden="true">{s().enabled ? 'On' : 'Off'}</span>
        </label>
      </td>
      <td data-testid="schedule-next-run" data-label="Next run">
        <Show when={s().next_run_at} fallback={<span class="muted">{s().enabled ? 'Never' : 'Paused'}</span>}>
          {(at) => <time datetime={at()}>{formatInZone(new Date(at()), s().timezone)}</time>}
        </Show>
      </td>
      <td data-label="Actions" class="cell-actions">
        <Show
          when={confirming()}
          fallback={
            <span class="controls schedule-actions">
              <button
                type="button"
                class="button button-small"
                disabled={busy()}
                onClick={() => void runNow()}
              >
                Run now
              </button>
              <button type="button" class="button button-small" onClick={() => props.onEdit()}>
                Edit
              </button>
              <A
                class="button button-small"
                href={`/agents/${encodeURIComponent(props.agent)}?tab=executions`}
              >
                Executions
              </A>
              <button
                ref={(el) => keepFocus && queueMicrotask(() => el.focus())}
                type="button"
                class="button button-small"
                onClick={() => setConfirming(true)}
              >
                Delete
              </button>
            </span>
          }
        >
          <span class="controls schedule-actions">
            <span>Delete “{s().name}”?</span>
            <button
              ref={(el) => queueMicrotask(() => el.focus())}
              type="button"
              class="button button-small button-danger"
              disabled={busy()}
              onClick={() => void remove()}
            >
              Yes, delete
            </button>
            <button
              type="button"
              class="button button-small"
              onClick={() => {
                keepFocus = true;
                setConfirming(false);
              }}
            >
              Keep
            </button>
          </span>
        </Show>
      </td>
    </tr>
  );
}
