import { parseCron, validateCron } from '@reprise/functions/core/schedule-cron';
import { fireEvent, screen, within } from '@solidjs/testing-library';
import { describe, expect, it } from 'vitest';
import { describeCron } from '~/components/schedules/cron-describe';
import { clientErrors, initialValues } from '~/components/schedules/form-model';
import { nextRuns } from '~/components/schedules/next-runs';
import { createFakeServer } from './fake-server';
import { agent } from './fixtures';
import { renderApp } from './render-app';

describe('describeCron', () => {
  it.each([
    ['0 9 * * *', 'Europe/Berlin', 'Every day at 09:00 (Europe/Berlin)'],
    ['* * * * *', 'UTC', 'Every minute (UTC)'],
    ['*/15 * * * *', 'UTC', 'Every 15 minutes (UTC)'],
    ['5 * * * *', 'UTC', 'Every hour at :05 (UTC)'],
    ['0 */2 * * *', 'UTC', 'Every 2 hours at :00 (UTC)'],
    ['0 9 * * 1-5', 'America/New_York', 'Every weekday at 09:00 (America/New_York)'],
    ['30 8 * * MON,FRI', 'UTC', 'Every Monday and Friday at 08:30 (UTC)'],
    ['0 9,17 * * *', 'UTC', 'Every day at 09:00 and 17:00 (UTC)'],
    ['*/15 9-17 * * 1-5', 'UTC', 'Every 15 minutes between 09:00 and 17:59 on weekdays (UTC)'],
    ['0 6 1,15 * *', 'UTC', 'On days 1 and 15 of the month at 06:00 (UTC)'],
    ['0 0 1 1 *', 'UTC', 'Every year on 1 January at 00:00 (UTC)'],
    ['0 12 * 6-8 SAT,SUN', 'UTC', 'Every Saturday and Sunday at 12:00 in June, July and August (UTC)'],
  ])('reads "%s" in %s as "%s"', (cron, zone, text) => {
    expect(describeCron(cron, zone)).toBe(text);
  });

  it('has no reading for an expression that does not parse', () => {
    expect(describeCron('0 9 * *', 'UTC')).toBeNull();
    expect(describeCron('61 * * * *', 'UTC')).toBeNull();
  });
});

const cronError = (cron: string, timezone = 'UTC') =>
  clientErrors({ ...initialValues(undefined), cron, timezone }, false).cron;

describe('the form checks the cron with the server’s rule', () => {
  it.each([
    [
      '0 9 * *',
      'Expected 5 fields (minute hour day-of-month month day-of-week), got 4; seconds and years are not supported.',
    ],
    [
      '0 9 * * * 2026',
      'Expected 5 fields (minute hour day-of-month month day-of-week), got 6; seconds and years are not supported.',
    ],
    ['0 24 * * *', 'The hour field "24" is outside 0-23.'],
    ['0 9 1 * MON', 'Restrict day-of-month or day-of-week, not both (set one of them to *).'],
    ['5/10 * * * *', 'The minute field "5/10" steps from a single value; write */n or a-b/n.'],
    ['0 9 * FOO *', 'The month field "FOO" contains "FOO".'],
    ['0 9 31 2 *', '"0 9 31 2 *" never matches a date.'],
  ])('rejects "%s"', (cron, error) => {
    expect(cronError(cron)).toBe(error);
  });

  it('names an unknown time zone and still checks the cron', () => {
    const errors = clientErrors(
      { ...initialValues(undefined), cron: '0 9 * *', timezone: 'Mars/Olympus' },
      false,
    );
    expect(errors.timezone).toBe('"Mars/Olympus" is not a known IANA time zone (for example Europe/Berlin).');
    expect(errors.cron).toContain('Expected 5 fields');
  });

  it('accepts names, lists, ranges and steps', () => {
    expect(cronError('*/20 9-17/4 * JAN,JUL sun-sat')).toBeUndefined();
    expect(parseCron('*/20 9-17/4 * JAN,JUL sun-sat').map((f) => f.values)).toEqual([
      [0, 20, 40],
      [9, 13, 17],
      expect.any(Array),
      [1, 7],
      [0, 1, 2, 3, 4, 5, 6],
    ]);
  });
});

describe('the form and the server agree on the dialect', () => {
  it.each([
    '* * * * *',
    '0 9 * * 1-5',
    '*/5 8-18/2 * JAN-MAR,DEC sun',
    '0 0 1,15 * *',
    '0 9 * * 7',
    '59 23 31 12 *',
    '0 9 * *',
    '0 9 * * * *',
    '60 * * * *',
    '0 9 1 * 1',
    '5/10 * * * *',
    '10-5 * * * *',
    '0 9 * * MON-',
    '@daily',
    '0 9 ? * *',
    '0 9 L * *',
  ])('"%s"', (cron) => {
    let serverAccepts = true;
    try {
      validateCron(cron, 'UTC');
    } catch {
      serverAccepts = false;
    }
    expect(cronError(cron) === undefined).toBe(serverAccepts);
  });
});

describe('nextRuns', () => {
  it('computes runs in the schedule’s zone, not the browser’s', () => {
    const after = new Date('2026-12-01T10:00:00Z');
    // Berlin is UTC+1 in December.
    expect(nextRuns('0 9 * * *', 'Europe/Berlin', 3, after).map((d) => d.toISOString())).toEqual([
      '2026-12-02T08:00:00.000Z',
      '2026-12-03T08:00:00.000Z',
      '2026-12-04T08:00:00.000Z',
    ]);
    expect(
      nextRuns('0 9 * * 1-5', 'UTC', 2, new Date('2026-12-04T10:00:00Z')).map((d) => d.toISOString()),
    ).toEqual(['2026-12-07T09:00:00.000Z', '2026-12-08T09:00:00.000Z']);
  });
});

describe('the form’s live preview', () => {
  it('reads the cron aloud and lists the next three runs as the user types', async () => {
    const server = createFakeServer({
      'GET /api/agents/demo': agent(),
      'GET /api/agents/demo/schedules': { items: [] },
    });
    renderApp('/agents/demo?tab=schedules', server.fetch);
    fireEvent.click(await screen.findByRole('button', { name: 'New schedule' }));
    fireEvent.input(screen.getByLabelText('Time zone'), { target: { value: 'Asia/Tokyo' } });
    fireEvent.input(screen.getByLabelText(/^Cron/), { target: { value: '*/15 9-17 * * 1-5' } });

    const preview = screen.getByTestId('cron-preview');
    expect(within(preview).getByTestId('cron-description').textContent).toBe(
      'Every 15 minutes between 09:00 and 17:59 on weekdays (Asia/Tokyo)',
    );
    const runs = within(preview).getAllByRole('listitem');
    expect(runs).toHaveLength(3);
    const times = runs.map((li) => Date.parse(li.querySelector('time')?.getAttribute('datetime') ?? ''));
    expect(times[0]).toBeGreaterThan(Date.now());
    expect([...times].sort()).toEqual(times);
    // Tokyo is a whole number of hours from UTC, so its quarter hours are UTC's.
    expect(times.map((t) => new Date(t).getUTCMinutes() % 15)).toEqual([0, 0, 0]);

    fireEvent.input(screen.getByLabelText(/^Cron/), { target: { value: '0 9 31 2 *' } });
    expect(preview.textContent).toContain('This never matches a date');
    expect(within(preview).queryAllByRole('listitem')).toHaveLength(0);

    fireEvent.input(screen.getByLabelText(/^Cron/), { target: { value: '*/15 9-17 * *' } });
    expect(within(preview).queryByTestId('cron-description')).toBeNull();
    expect(preview.textContent).toContain('Enter a valid cron');
  });
});
