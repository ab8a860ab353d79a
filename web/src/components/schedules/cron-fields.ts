/**
 * The form's own reading of a 5-field cron, for instant feedback and the preview. The server
 * stays the judge (its 400s are shown next to the field); this only has to agree on the dialect:
 * numbers, month and weekday names, `*`, lists, ranges and steps.
 */
export type FieldName = 'minute' | 'hour' | 'day-of-month' | 'month' | 'day-of-week';

export type Field = {
  readonly name: FieldName;
  /** As written, upper-cased. */
  readonly text: string;
  /** Every value it matches, ascending; day-of-week 7 is folded into 0 (Sunday). */
  readonly values: readonly number[];
  readonly star: boolean;
};

export type CronFields = readonly [Field, Field, Field, Field, Field];
export type CronCheck = { ok: true; fields: CronFields } | { ok: false; error: string };

export const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
export const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

type Spec = { name: FieldName; min: number; max: number; names: readonly string[]; firstName: number };
const SPECS: readonly Spec[] = [
  { name: 'minute', min: 0, max: 59, names: [], firstName: 0 },
  { name: 'hour', min: 0, max: 23, names: [], firstName: 0 },
  { name: 'day-of-month', min: 1, max: 31, names: [], firstName: 0 },
  { name: 'month', min: 1, max: 12, names: MONTHS, firstName: 1 },
  { name: 'day-of-week', min: 0, max: 7, names: WEEKDAYS, firstName: 0 },
];

class CronSyntaxError extends Error {}

export function checkCron(cron: string): CronCheck {
  const parts = cron.trim().split(/\s+/).filter(Boolean);
  if (parts.length !== 5) {
    return {
      ok: false,
      error: `Expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}.`,
    };
  }
  try {
    const fields = SPECS.map((spec, i) =>
      readField(spec, (parts[i] ?? '').toUpperCase()),
    ) as unknown as CronFields;
    // Classic cron runs when either day field matches; EventBridge cannot say that, so neither do we.
    if (!fields[2].star && !fields[4].star) {
      return { ok: false, error: 'Restrict day-of-month or day-of-week, not both (set one of them to *).' };
    }
    return { ok: true, fields };
  } catch (err) {
    if (err instanceof CronSyntaxError) return { ok: false, error: err.message };
    throw err;
  }
}

function readField(spec: Spec, text: string): Field {
  const values = new Set<number>();
  for (const item of text.split(',')) {
    const m = /^(\*|[A-Z0-9]+(?:-[A-Z0-9]+)?)(?:\/(\d+))?$/.exec(item);
    const range = m?.[1];
    if (!range) throw new CronSyntaxError(`The ${spec.name} field "${text}" is not valid cron syntax.`);
    const step = m[2] === undefined ? 1 : Number(m[2]);
    if (step < 1) throw new CronSyntaxError(`The ${spec.name} field "${text}" has a zero step.`);
    if (m[2] !== undefined && range !== '*' && !range.includes('-')) {
      throw new CronSyntaxError(
        `The ${spec.name} field "${text}" steps from a single value; write */n or a-b/n.`,
      );
    }
    const [from, to] =
      range === '*' ? [spec.min, spec.max] : range.split('-').map((v) => toNumber(spec, v, text));
    const first = from ?? spec.min;
    const last = to ?? first;
    if (last < first)
      throw new CronSyntaxError(`The ${spec.name} field "${text}" has a range that runs backwards.`);
    for (let v = first; v <= last; v += step) values.add(spec.name === 'day-of-week' ? v % 7 : v);
  }
  return { name: spec.name, text, values: [...values].sort((a, b) => a - b), star: text === '*' };
}

function toNumber(spec: Spec, raw: string, text: string): number {
  const named = spec.names.indexOf(raw);
  const value = named >= 0 ? named + spec.firstName : /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (Number.isNaN(value)) throw new CronSyntaxError(`The ${spec.name} field "${text}" contains "${raw}".`);
  if (value < spec.min || value > spec.max) {
    throw new CronSyntaxError(`The ${spec.name} field "${text}" is outside ${spec.min}–${spec.max}.`);
  }
  return value;
}

/** Whether the runtime knows this IANA zone name (offsets such as "+05:00" are not zones). */
export function isKnownTimezone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
