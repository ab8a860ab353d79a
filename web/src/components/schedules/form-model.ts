import { normalizeTimezone, validateCron } from '@reprise/functions/core/schedule-cron';
import { ValidationError } from '@reprise/functions/errors';
import type { Schedule, ScheduleInput } from '@reprise/functions/schemas';
import { ApiError, errorMessage } from '~/api/api-error';
import { browserTimezone } from './timezones';

export const FORM_FIELDS = ['name', 'cron', 'timezone', 'message', 'timeout_seconds'] as const;
export type FormField = (typeof FORM_FIELDS)[number];
export type FieldErrors = Partial<Record<FormField, string>>;

/** What the inputs hold, as typed. */
export type FormValues = Record<FormField, string> & { enabled: boolean };

export function initialValues(s: Schedule | undefined): FormValues {
  return {
    name: s?.name ?? '',
    cron: s?.cron ?? '0 9 * * 1-5',
    timezone: s?.timezone ?? browserTimezone(),
    message: s?.message ?? '',
    timeout_seconds: s ? String(s.timeout_seconds) : '',
    enabled: s?.enabled ?? true,
  };
}

/** The request body; an empty timeout leaves it to the server's default. */
export function toScheduleInput(v: FormValues): ScheduleInput {
  const timeout = v.timeout_seconds.trim();
  return {
    name: v.name.trim(),
    cron: v.cron.trim().split(/\s+/).join(' '),
    timezone: v.timezone.trim(),
    message: v.message,
    enabled: v.enabled,
    ...(timeout ? { timeout_seconds: Number(timeout) } : {}),
  };
}

/** The server's own rule, run in the browser: its first message as a sentence, or null. */
function verdict(check: () => unknown): string | null {
  try {
    check();
    return null;
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const first = err.details?.[0] as { message?: string } | undefined;
    const text = first?.message ?? err.message;
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  }
}

/** Whether the server would accept this time zone name. */
export const isKnownTimezone = (zone: string): boolean => verdict(() => normalizeTimezone(zone)) === null;

/**
 * What the browser can tell before asking the server. Cron and zone are checked as they are typed;
 * empty required fields only once the user has tried to save.
 */
export function clientErrors(v: FormValues, submitted: boolean): FieldErrors {
  const errors: FieldErrors = {};
  const zone = v.timezone.trim();
  const zoneError = zone ? verdict(() => normalizeTimezone(zone)) : null;
  if (zoneError) errors.timezone = zoneError;
  const cronError = verdict(() => validateCron(v.cron, zone && !zoneError ? zone : 'UTC'));
  if (cronError) errors.cron = cronError;
  const timeout = v.timeout_seconds.trim();
  if (timeout && !/^\d+$/.test(timeout)) errors.timeout_seconds = 'Whole seconds, 10 to 840.';
  else if (timeout && (Number(timeout) < 10 || Number(timeout) > 840)) {
    errors.timeout_seconds = 'Between 10 and 840 seconds (leave empty for the default).';
  }
  if (submitted) {
    if (!v.name.trim()) errors.name = 'Give the schedule a name.';
    if (!v.message.trim()) errors.message = 'Write what the agent should be asked.';
    if (!zone) errors.timezone = 'Choose a time zone, for example UTC.';
  }
  return errors;
}

/** Splits a failed save into messages next to fields and one for the form as a whole. */
export function serverErrors(err: unknown): { fields: FieldErrors; form: string | null } {
  if (!(err instanceof ApiError) || err.details.length === 0) return { fields: {}, form: errorMessage(err) };
  const fields: FieldErrors = {};
  const rest: string[] = [];
  for (const d of err.details) {
    const field = FORM_FIELDS.find((f) => f === d.path.split('.')[0]);
    if (field) fields[field] ??= d.message;
    else rest.push(d.path ? `${d.path}: ${d.message}` : d.message);
  }
  const form = rest.length > 0 ? rest.join(' ') : Object.keys(fields).length > 0 ? null : err.message;
  return { fields, form };
}
