import { nextRunAfter, normalizeTimezone, validateCron } from '@reprise/functions/core/schedule-cron';
import { AppError } from '@reprise/functions/errors';
import { describe, expect, it } from 'vitest';

const rejection = (fn: () => unknown): { status: number; code: string; message: string; path: unknown } => {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) {
      const details = (e.details ?? []) as Array<{ path: string }>;
      return { status: e.status, code: e.code, message: e.message, path: details[0]?.path };
    }
    throw e;
  }
  throw new Error('expected a validation error');
};

describe('validateCron', () => {
  it('accepts classic 5-field crons and defaults the zone to UTC', () => {
    expect(validateCron('*/15 * * * *', undefined)).toEqual({ cron: '*/15 * * * *', timezone: 'UTC' });
    expect(validateCron(' 0  9 * * mon-fri ', 'Europe/Berlin')).toEqual({
      cron: '0 9 * * MON-FRI',
      timezone: 'Europe/Berlin',
    });
    expect(validateCron('30 2 1,15 jan-jun *', 'America/New_York').cron).toBe('30 2 1,15 JAN-JUN *');
  });

  it.each([
    ['* * * * * *', /expected 5 fields/],
    ['0 0 1 * * 2027', /expected 5 fields/],
    ['* * * *', /expected 5 fields/],
    ['@daily', /expected 5 fields/],
    ['60 * * * *', /minute field "60" is outside 0-59/],
    ['0 24 * * *', /hour field/],
    ['0 0 0 * *', /day-of-month field/],
    ['0 0 * 13 *', /month field/],
    ['0 0 * * 8', /day-of-week field/],
    ['0 0 L * *', /day-of-month field "L"/],
    ['0 0 ? * MON', /day-of-month field "\?"/],
    ['0 0 * * MON#2', /not valid cron syntax/],
    ['5/15 * * * *', /steps from a single value/],
    ['*/0 * * * *', /zero step/],
    ['10-5 * * * *', /runs backwards/],
    ['0 0 1 * MON', /not both/],
    ['0 0 31 2 *', /never matches/],
  ])('rejects %s with a 400 naming the cron field', (cron, message) => {
    const err = rejection(() => validateCron(cron, 'UTC'));
    expect(err).toMatchObject({ status: 400, code: 'validation_error', path: 'cron' });
    expect(err.message).toMatch(/^cron: /);
    expect(err.message).toMatch(message);
  });

  it.each(['Mars/Olympus_Mons', '+05:00', 'UTC+1', '', 'Europe/', '../etc/passwd'])(
    'rejects the zone %j with a 400 naming the timezone field',
    (zone) => {
      const err = rejection(() => validateCron('0 * * * *', zone));
      expect(err).toMatchObject({ status: 400, code: 'validation_error', path: 'timezone' });
      expect(err.message).toMatch(/^timezone: .*IANA/);
    },
  );

  it('spells zones canonically', () => {
    expect(normalizeTimezone('utc')).toBe('UTC');
    expect(normalizeTimezone('asia/tokyo')).toBe('Asia/Tokyo');
  });
});

describe('nextRunAfter', () => {
  const from = Date.parse('2026-12-02T14:07:30Z');

  it('honours the time zone', () => {
    expect(nextRunAfter('0 9 * * *', 'UTC', from)).toBe('2026-12-03T09:00:00.000Z');
    // Berlin is UTC+1 in December.
    expect(nextRunAfter('0 9 * * *', 'Europe/Berlin', from)).toBe('2026-12-03T08:00:00.000Z');
  });

  it('treats day-of-week 7 as Sunday, like 0', () => {
    expect(nextRunAfter('0 9 * * 7', 'UTC', from)).toBe('2026-12-06T09:00:00.000Z');
    expect(nextRunAfter('0 9 * * 0', 'UTC', from)).toBe('2026-12-06T09:00:00.000Z');
  });

  it('is strictly after the given instant, a minute apart at most once', () => {
    expect(nextRunAfter('* * * * *', 'UTC', Date.parse('2026-12-02T14:08:00Z'))).toBe(
      '2026-12-02T14:09:00.000Z',
    );
  });
});
