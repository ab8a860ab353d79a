import { Cron } from 'croner';
import { ValidationError } from '../lib/errors';

/**
 * The cron dialect Reprise accepts: classic 5-field cron with numbers, names, `*`, lists, ranges
 * and steps. Nothing else (no seconds field, no `@daily`, no `L`/`W`/`#`/`?`), because every
 * accepted expression must mean the same thing to croner (local) and EventBridge Scheduler (AWS).
 * The SPA's schedule form imports this module too, so the browser and the server apply one rule.
 */
export interface CronField {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  /** The field as written, upper-cased. */
  readonly text: string;
  /** Every value it matches, ascending (day-of-week 7 folded into 0). */
  readonly values: readonly number[];
  /** Written as a bare `*`: for the day fields this means "unrestricted". */
  readonly star: boolean;
}

export type ParsedCron = readonly [CronField, CronField, CronField, CronField, CronField];

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
export const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const SPECS = [
  { name: 'minute', min: 0, max: 59, names: [] as string[], base: 0 },
  { name: 'hour', min: 0, max: 23, names: [], base: 0 },
  { name: 'day-of-month', min: 1, max: 31, names: [], base: 0 },
  { name: 'month', min: 1, max: 12, names: MONTHS, base: 1 },
  { name: 'day-of-week', min: 0, max: 7, names: WEEKDAYS, base: 0 },
] as const;

/** EventBridge and our own product promise: at most one run a minute. */
export const MIN_INTERVAL_MS = 60_000;

const invalid = (message: string, field = 'cron') =>
  new ValidationError(`${field}: ${message}`, [{ path: field, message }]);

export function parseCron(cron: string): ParsedCron {
  const parts = cron.trim().split(/\s+/);
  if (parts.length !== 5) {
    throw invalid(
      `expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}; seconds and years are not supported`,
    );
  }
  const fields = SPECS.map((spec, i) =>
    parseField(spec, (parts[i] ?? '').toUpperCase()),
  ) as unknown as ParsedCron;
  if (!fields[2].star && !fields[4].star) {
    // Classic cron runs when either day field matches; EventBridge cannot express that.
    throw invalid('restrict day-of-month or day-of-week, not both (set one of them to *)');
  }
  return fields;
}

function parseField(spec: (typeof SPECS)[number], text: string): CronField {
  const values = new Set<number>();
  for (const item of text.split(',')) {
    const m = /^(\*|[A-Z0-9]+(?:-[A-Z0-9]+)?)(?:\/(\d+))?$/.exec(item);
    if (!m?.[1]) throw invalid(`the ${spec.name} field "${text}" is not valid cron syntax`);
    const [range, stepText] = [m[1], m[2]];
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) throw invalid(`the ${spec.name} field "${text}" has a zero step`);
    if (stepText !== undefined && !range.includes('-') && range !== '*') {
      throw invalid(`the ${spec.name} field "${text}" steps from a single value; write */n or a-b/n`);
    }
    const [from, to] =
      range === '*'
        ? [spec.min, spec.max]
        : (range.split('-').map((v) => toNumber(spec, v, text)) as [number, number?]);
    const last = to ?? from;
    if (last < from) throw invalid(`the ${spec.name} field "${text}" has a range that runs backwards`);
    for (let v = from; v <= last; v += step) values.add(spec.name === 'day-of-week' ? v % 7 : v);
  }
  return {
    name: spec.name,
    min: spec.min,
    max: spec.name === 'day-of-week' ? 6 : spec.max,
    text,
    values: [...values].sort((a, b) => a - b),
    star: text === '*',
  };
}

function toNumber(spec: (typeof SPECS)[number], raw: string, text: string): number {
  const named = (spec.names as readonly string[]).indexOf(raw);
  const value = named >= 0 ? named + spec.base : /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (Number.isNaN(value)) throw invalid(`the ${spec.name} field "${text}" contains "${raw}"`);
  if (value < spec.min || value > spec.max) {
    throw invalid(`the ${spec.name} field "${text}" is outside ${spec.min}-${spec.max}`);
  }
  return value;
}

/** The IANA zone in its canonical spelling; UTC when none is given. */
export function normalizeTimezone(timezone: string | undefined): string {
  if (timezone === undefined) return 'UTC';
  // Intl also accepts offsets such as "+05:00"; EventBridge wants a zone name.
  if (/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(timezone)) {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
    } catch {
      // Falls through to the validation error below.
    }
  }
  throw invalid(`"${timezone}" is not a known IANA time zone (for example Europe/Berlin)`, 'timezone');
}

/**
 * Checks a cron and time zone together and returns the canonical pair. Errors are 400s that name
 * the field, so a form can show them next to the input.
 */
export function validateCron(cron: string, timezone: string | undefined): { cron: string; timezone: string } {
  const fields = parseCron(cron);
  const zone = normalizeTimezone(timezone);
  const canonical = fields.map((f) => f.text).join(' ');
  let runs: Date[];
  try {
    runs = cronJob(canonical, zone).nextRuns(2, new Date());
  } catch (e) {
    throw invalid(e instanceof Error ? e.message : 'not a valid cron expression');
  }
  const [first, second] = runs;
  if (!first) throw invalid(`"${canonical}" never matches a date`);
  if (second && second.getTime() - first.getTime() < MIN_INTERVAL_MS) {
    throw invalid('runs more than once a minute; the shortest interval is one minute');
  }
  return { cron: canonical, timezone: zone };
}

export const cronJob = (cron: string, timezone: string): Cron =>
  new Cron(cron, { timezone, mode: '5-part', paused: true });

/** The next run strictly after `after`, or null when the cron never matches again. */
export function nextRunAfter(cron: string, timezone: string, after: number): string | null {
  return cronJob(cron, timezone).nextRun(new Date(after))?.toISOString() ?? null;
}
