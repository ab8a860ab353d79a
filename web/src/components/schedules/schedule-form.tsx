import type { Schedule, ScheduleInput } from '@reprise/functions/schemas';
import { createMemo, createSignal, createUniqueId, For, type JSX, onMount, Show } from 'solid-js';
import { useServices } from '~/services';
import { CronPreview } from './cron-preview';
import { clientErrors, type FieldErrors, type FormField, type FormValues, serverErrors } from './form-errors';
import { browserTimezone, COMMON_TIMEZONES } from './timezones';

type Props = {
  agent: string;
  /** The schedule being edited; a new one when absent. */
  schedule?: Schedule;
  onSaved: (saved: Schedule) => void;
  onCancel: () => void;
};

export function ScheduleForm(props: Props) {
  const { api } = useServices();
  const uid = createUniqueId();
  const id = (field: string) => `schedule-${uid}-${field}`;
  // The form edits a copy: later changes to the row do not reach into a half-typed form.
  const initial = props.schedule;
  const [values, setValues] = createSignal<FormValues>({
    name: initial?.name ?? '',
    cron: initial?.cron ?? '0 9 * * 1-5',
    timezone: initial?.timezone ?? browserTimezone(),
    message: initial?.message ?? '',
    timeout: initial ? String(initial.timeout_seconds) : '',
  });
  const [enabled, setEnabled] = createSignal(initial?.enabled ?? true);
  const [submitted, setSubmitted] = createSignal(false);
  const [fromServer, setFromServer] = createSignal<FieldErrors>({});
  const [formError, setFormError] = createSignal<string | null>(null);
  const [saving, setSaving] = createSignal(false);
  const local = createMemo(() => clientErrors(values(), submitted()));
  const errorOf = (field: FormField) => fromServer()[field] ?? local()[field];
  let form!: HTMLFormElement;
  let nameInput!: HTMLInputElement;
  onMount(() => nameInput.focus());

  // Editing a field retires the server's verdict on it; the server judges again on save.
  const edit = (field: keyof FormValues & FormField) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [field]: value }));
    setFromServer(({ [field]: _, ...rest }) => rest);
  };
  const editTimeout = (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, timeout: value }));
    setFromServer(({ timeout_seconds: _, ...rest }) => rest);
  };
  const focusFirstError = () =>
    queueMicrotask(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  async function save(e: SubmitEvent) {
    e.preventDefault();
    setSubmitted(true);
    setFormError(null);
    if (Object.keys(local()).length > 0) return focusFirstError();
    const v = values();
    const body: ScheduleInput = {
      name: v.name.trim(),
      cron: v.cron.trim().split(/\s+/).join(' '),
      timezone: v.timezone.trim(),
      message: v.message,
      enabled: enabled(),
      ...(v.timeout.trim() ? { timeout_seconds: Number(v.timeout) } : {}),
    };
    setSaving(true);
    try {
      const saved = initial
        ? await api.updateSchedule(initial.id, body)
        : await api.createSchedule(props.agent, body);
      props.onSaved(saved);
    } catch (err) {
      const { fields, form: message } = serverErrors(err);
      setFromServer(fields);
      setFormError(message);
      focusFirstError();
    } finally {
      setSaving(false);
    }
  }

  const field = (name: FormField, label: string, control: JSX.Element, hint?: string) => (
    <div class="form-field">
      <label for={id(name)}>{label}</label>
      {control}
      <Show when={hint}>
        <span class="form-hint muted" id={id(`${name}-hint`)}>
          {hint}
        </span>
      </Show>
      <Show when={errorOf(name)}>
        <span class="form-error" id={id(`${name}-error`)} data-testid={`schedule-error-${name}`}>
          {errorOf(name)}
        </span>
      </Show>
    </div>
  );
  const described = (name: FormField, ...extra: string[]) =>
    [...extra, ...(errorOf(name) ? [id(`${name}-error`)] : [])].join(' ') || undefined;

  return (
    <form
      ref={form}
      class="card schedule-form"
      aria-labelledby={id('title')}
      onSubmit={save}
      onKeyDown={(e) => e.key === 'Escape' && props.onCancel()}
      noValidate
    >
      <h2 id={id('title')}>{initial ? `Edit ${initial.name}` : 'New schedule'}</h2>
      <Show when={formError()}>
        <p class="banner banner-error" role="alert">
          {formError()}
        </p>
      </Show>
      <div class="form-grid">
        {field(
          'name',
          'Name',
          <input
            ref={nameInput}
            id={id('name')}
            value={values().name}
            onInput={edit('name')}
            aria-invalid={!!errorOf('name')}
            aria-describedby={described('name')}
            maxLength={100}
            required
          />,
        )}
        {field(
          'cron',
          'Cron (minute hour day-of-month month day-of-week)',
          <input
            id={id('cron')}
            class="mono"
            value={values().cron}
            onInput={edit('cron')}
            aria-invalid={!!errorOf('cron')}
            aria-describedby={described('cron', id('cron-hint'), id('preview'))}
            spellcheck={false}
            autocomplete="off"
            required
          />,
          'Five fields, e.g. 0 9 * * 1-5. Names (MON, JAN), lists, ranges and */n steps work.',
        )}
        {field(
          'timezone',
          'Time zone',
          <>
            <input
              id={id('timezone')}
              list={id('zones')}
              value={values().timezone}
              onInput={edit('timezone')}
              aria-invalid={!!errorOf('timezone')}
              aria-describedby={described('timezone')}
              autocomplete="off"
              required
            />
            <datalist id={id('zones')}>
              <For each={COMMON_TIMEZONES}>{(zone) => <option value={zone} />}</For>
            </datalist>
          </>,
        )}
        {field(
          'timeout_seconds',
          'Timeout (seconds, optional)',
          <input
            id={id('timeout_seconds')}
            inputMode="numeric"
            placeholder="600"
            value={values().timeout}
            onInput={editTimeout}
            aria-invalid={!!errorOf('timeout_seconds')}
            aria-describedby={described('timeout_seconds')}
          />,
        )}
      </div>
      <CronPreview id={id('preview')} cron={values().cron} timezone={values().timezone} />
      {field(
        'message',
        'Message',
        <textarea
          id={id('message')}
          rows={4}
          value={values().message}
          onInput={edit('message')}
          aria-invalid={!!errorOf('message')}
          aria-describedby={described('message')}
          required
        />,
      )}
      <label class="form-check">
        <input type="checkbox" checked={enabled()} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        Enabled
      </label>
      <div class="form-actions">
        <button type="button" class="button" onClick={() => props.onCancel()}>
          Cancel
        </button>
        <button type="submit" class="button button-primary" disabled={saving()}>
          {saving() ? 'Saving…' : initial ? 'Save changes' : 'Create schedule'}
        </button>
      </div>
    </form>
  );
}
