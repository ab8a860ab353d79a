import type { Schedule } from '@reprise/functions/schemas';
import { createMemo, createSignal, createUniqueId, For, type JSX, onMount, Show } from 'solid-js';
import { useServices } from '~/services';
import { CronPreview } from './cron-preview';
import {
  clientErrors,
  type FieldErrors,
  type FormField,
  type FormValues,
  initialValues,
  serverErrors,
  toScheduleInput,
} from './form-model';
import { COMMON_TIMEZONES } from './timezones';

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
  const id = (part: string) => `schedule-${uid}-${part}`;
  // The form edits a copy: later changes to the row do not reach into a half-typed form.
  const initial = props.schedule;
  const [values, setValues] = createSignal<FormValues>(initialValues(initial));
  const [submitted, setSubmitted] = createSignal(false);
  const [fromServer, setFromServer] = createSignal<FieldErrors>({});
  const [formError, setFormError] = createSignal<string | null>(null);
  const [saving, setSaving] = createSignal(false);
  const local = createMemo(() => clientErrors(values(), submitted()));
  const errorOf = (field: FormField) => fromServer()[field] ?? local()[field];
  let form!: HTMLFormElement;
  let nameInput!: HTMLInputElement;
  onMount(() => nameInput.focus());

  /** What every text control shares: its value, and an error it is described by and flagged with. */
  const bind = (field: FormField, ...describedBy: string[]) => ({
    id: id(field),
    get value() {
      return values()[field];
    },
    // Editing a field retires the server's verdict on it; the server judges again on save.
    onInput: (e: { currentTarget: { value: string } }) => {
      const value = e.currentTarget.value;
      setValues((v) => ({ ...v, [field]: value }));
      setFromServer(({ [field]: _, ...rest }) => rest);
    },
    get 'aria-invalid'() {
      return !!errorOf(field);
    },
    get 'aria-describedby'() {
      return [...describedBy, ...(errorOf(field) ? [id(`${field}-error`)] : [])].join(' ') || undefined;
    },
  });

  const Field = (p: { name: FormField; label: string; hint?: string; children: JSX.Element }) => (
    <div class="form-field">
      <label for={id(p.name)}>{p.label}</label>
      {p.children}
      <Show when={p.hint}>
        <span class="form-hint muted" id={id(`${p.name}-hint`)}>
          {p.hint}
        </span>
      </Show>
      <Show when={errorOf(p.name)}>
        <span class="form-error" id={id(`${p.name}-error`)} data-testid={`schedule-error-${p.name}`}>
          {errorOf(p.name)}
        </span>
      </Show>
    </div>
  );

  const focusFirstError = () =>
    queueMicrotask(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  async function save(e: SubmitEvent) {
    e.preventDefault();
    setSubmitted(true);
    setFormError(null);
    if (Object.keys(local()).length > 0) return focusFirstError();
    const body = toScheduleInput(values());
    setSaving(true);
    try {
      props.onSaved(
        initial ? await api.updateSchedule(initial.id, body) : await api.createSchedule(props.agent, body),
      );
    } catch (err) {
      const { fields, form: message } = serverErrors(err);
      setFromServer(fields);
      setFormError(message);
      focusFirstError();
    } finally {
      setSaving(false);
    }
  }

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
        <Field name="name" label="Name">
          <input ref={nameInput} {...bind('name')} maxLength={100} required />
        </Field>
        <Field
          name="cron"
          // A one-line label keeps this input level with its neighbours; the fields go in the hint.
          label="Cron"
          hint="minute hour day-of-month month day-of-week, e.g. 0 9 * * 1-5. Names (MON, JAN), lists, ranges and */n steps work."
        >
          <input
            {...bind('cron', id('cron-hint'), id('preview'))}
            class="mono"
            spellcheck={false}
            autocomplete="off"
            required
          />
        </Field>
        <Field name="timezone" label="Time zone">
          <input {...bind('timezone')} list={id('zones')} autocomplete="off" required />
          <datalist id={id('zones')}>
            <For each={COMMON_TIMEZONES}>{(zone) => <option value={zone} />}</For>
          </datalist>
        </Field>
        <Field name="timeout_seconds" label="Timeout (seconds, optional)">
          <input {...bind('timeout_seconds')} inputMode="numeric" placeholder="600" />
        </Field>
      </div>
      <CronPreview id={id('preview')} cron={values().cron} timezone={values().timezone} />
      <Field name="message" label="Message">
        <textarea {...bind('message')} rows={4} required />
      </Field>
      <label class="form-check">
        <input
          type="checkbox"
          checked={values().enabled}
          onChange={(e) => {
            const enabled = e.currentTarget.checked;
            setValues((v) => ({ ...v, enabled }));
          }}
        />
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
