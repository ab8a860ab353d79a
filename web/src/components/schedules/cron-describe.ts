import { type CronField as Field, type ParsedCron, parseCron } from '@reprise/functions/core/schedule-cron';

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** Beyond this many listed times the sentence stops helping; fall back to field-by-field. */
const MAX_LISTED_TIMES = 6;

/**
 * "Every day at 09:00 (Europe/Berlin)": a plain-English reading of a 5-field cron, or null when
 * the expression does not parse (the form shows the error instead).
 */
export function describeCron(cron: string, timezone: string): string | null {
  let fields: ParsedCron;
  try {
    fields = parseCron(cron);
  } catch {
    return null;
  }
  const [minute, hour, dom, month, dow] = fields;
  const times = fixedTimes(minute, hour);
  const inMonths = month.star
    ? ''
    : ` in ${joinList(month.values.map((m) => MONTH_NAMES[m - 1] ?? String(m)))}`;
  let sentence: string;
  if (times) {
    const at = `at ${joinList(times)}`;
    if (!dow.star) sentence = `Every ${weekdays(dow, 'singular')} ${at}${inMonths}`;
    else if (!dom.star && !month.star && dom.values.length === 1 && month.values.length === 1) {
      sentence = `Every year on ${dom.values[0]} ${MONTH_NAMES[(month.values[0] ?? 1) - 1]} ${at}`;
    } else if (!dom.star) sentence = `On ${daysOfMonth(dom)} ${at}${inMonths}`;
    else sentence = `Every day ${at}${inMonths}`;
  } else {
    const days = !dow.star ? ` on ${weekdays(dow, 'plural')}` : !dom.star ? ` on ${daysOfMonth(dom)}` : '';
    sentence = capitalize(`${repeating(minute, hour)}${days}${inMonths}`);
  }
  return `${sentence} (${timezone})`;
}

/** Every run as HH:MM when minute and hour name a few exact values, else null. */
function fixedTimes(minute: Field, hour: Field): string[] | null {
  if (isWild(minute) || isWild(hour)) return null;
  if (minute.values.length * hour.values.length > MAX_LISTED_TIMES) return null;
  return hour.values.flatMap((h) => minute.values.map((m) => `${pad(h)}:${pad(m)}`));
}

function repeating(minute: Field, hour: Field): string {
  const minuteStep = stepOf(minute);
  const hourStep = stepOf(hour);
  const single = minute.values.length === 1 && !isWild(minute) ? minute.values[0] : undefined;
  if (single !== undefined && hour.star) return `every hour at :${pad(single)}`;
  if (single !== undefined && hourStep) return `every ${hourStep} hours at :${pad(single)}`;
  const minutes = minute.star
    ? 'every minute'
    : minuteStep
      ? `every ${minuteStep} minutes`
      : `at minute ${joinList(minute.values.map(String))}`;
  return `${minutes}${hoursQualifier(hour)}`;
}

function hoursQualifier(hour: Field): string {
  if (hour.star) return '';
  const step = stepOf(hour);
  if (step) return ` of every ${step}${ordinalSuffix(step)} hour`;
  const range = /^(\d+)-(\d+)$/.exec(hour.text);
  if (range) return ` between ${pad(Number(range[1]))}:00 and ${pad(Number(range[2]))}:59`;
  return ` during hour ${joinList(hour.values.map(String))}`;
}

function weekdays(dow: Field, form: 'singular' | 'plural'): string {
  const v = dow.values.join(',');
  if (v === '1,2,3,4,5') return form === 'singular' ? 'weekday' : 'weekdays';
  if (v === '0,6') return form === 'singular' ? 'Saturday and Sunday' : 'weekends';
  return joinList(dow.values.map((d) => DAY_NAMES[d] ?? String(d)));
}

function daysOfMonth(dom: Field): string {
  const step = stepOf(dom);
  if (step) return `every ${step}${ordinalSuffix(step)} day of the month`;
  const plural = dom.values.length > 1 ? 's' : '';
  return `day${plural} ${joinList(dom.values.map(String))} of the month`;
}

/** `*` or `*\/n`: the field repeats rather than naming instants. */
const isWild = (f: Field) => f.star || stepOf(f) !== null;

function stepOf(f: Field): number | null {
  const m = /^\*\/(\d+)$/.exec(f.text);
  return m ? Number(m[1]) : null;
}

function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function ordinalSuffix(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
}

const pad = (n: number) => String(n).padStart(2, '0');
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
