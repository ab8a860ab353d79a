import { type CronField, parseCron, WEEKDAYS } from '../core/schedule-cron';

/**
 * Classic 5-field cron → EventBridge Scheduler's 6-field `cron(min hour dom month dow year)`.
 * The differences that matter: one of day-of-month / day-of-week must be `?`; day-of-week counts
 * 1-7 from Sunday (so we emit names, never numbers) and takes no `/` steps (so steps are
 * expanded into lists); a year field is appended.
 */
export function toAwsCronExpression(cron: string): string {
  const [minute, hour, dom, month, dow] = parseCron(cron);
  const restrictsWeekday = !dow.star;
  const day = restrictsWeekday ? '?' : numeric(dom);
  const weekday = restrictsWeekday ? weekdays(dow) : '?';
  return `cron(${numeric(minute)} ${numeric(hour)} ${day} ${numeric(month)} ${weekday} *)`;
}

function numeric(field: CronField): string {
  const { values, min, max } = field;
  if (values.length === max - min + 1) return '*';
  const step = steppedFrom(values, max);
  if (step) return `${values[0]}/${step}`;
  return runs(values)
    .map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`))
    .join(',');
}

function weekdays(field: CronField): string {
  if (field.values.length === 7) return '*';
  return runs(field.values)
    .map(([a, b]) => (a === b ? WEEKDAYS[a] : `${WEEKDAYS[a]}-${WEEKDAYS[b]}`))
    .join(',');
}

/** `start/step` when three or more values are exactly start, start+step, … to the field's end. */
function steppedFrom(values: readonly number[], max: number): number | null {
  const [first, second] = values;
  if (values.length < 3 || first === undefined || second === undefined) return null;
  const step = second - first;
  if (step < 2) return null;
  const regular = values.every((v, i) => v === first + i * step);
  const last = values[values.length - 1] ?? first;
  return regular && last + step > max ? step : null;
}

/** Consecutive values folded into [from, to] pairs. */
function runs(values: readonly number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const v of values) {
    const current = out[out.length - 1];
    if (current && current[1] === v - 1) current[1] = v;
    else out.push([v, v]);
  }
  return out;
}
