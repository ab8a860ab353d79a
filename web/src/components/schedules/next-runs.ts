import { Cron } from 'croner';

/**
 * The next `count` runs, computed with the same library and options the local cron uses, so the
 * preview matches what will fire. Empty when croner cannot read the expression.
 */
export function nextRuns(cron: string, timezone: string, count: number, after = new Date()): Date[] {
  try {
    return new Cron(cron.trim(), { timezone, mode: '5-part', paused: true }).nextRuns(count, after);
  } catch {
    return [];
  }
}

/** A run time as the schedule sees it: in its own zone, with the zone's abbreviation. */
export function formatInZone(at: Date, timezone: string): string {
  return at.toLocaleString(undefined, {
    timeZone: timezone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
}
