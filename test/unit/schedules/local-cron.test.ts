import type { ScheduledEvent } from '@reprise/functions/core/schedule-fire';
import { scheduledSlot } from '@reprise/functions/core/schedule-fire';
import { silentLogger } from '@reprise/functions/lib/log';
import { LocalCron } from '@reprise/functions/scheduling/local-cron';
import { afterEach, describe, expect, it, vi } from 'vitest';

const T0 = Date.parse('2026-12-02T14:00:30Z');
const job = { tenant: 'acme', id: 'S1', agent: 'demo', cron: '*/5 * * * *', timezone: 'UTC', enabled: true };

function setup(start = T0) {
  let now = start;
  const fired: ScheduledEvent[] = [];
  const cron = new LocalCron({
    fire: async (e) => {
      fired.push(e);
    },
    clock: { now: () => now },
    logger: silentLogger,
  });
  return { cron, fired, setNow: (t: number) => (now = t) };
}

const min = 60_000;

describe('LocalCron', () => {
  it('fires a schedule once when it falls due, with its scheduled time', async () => {
    const { cron, fired } = setup();
    await cron.upsert(job);
    await cron.tick(T0 + 4 * min);
    expect(fired).toEqual([]);
    await cron.tick(T0 + 5 * min);
    expect(fired).toEqual([{ tenant: 'acme', schedule_id: 'S1', scheduled_at: '2026-12-02T14:05:00.000Z' }]);
    await cron.tick(T0 + 5 * min);
    await cron.tick(T0 + 6 * min);
    expect(fired).toHaveLength(1);
  });

  it('fires only the latest missed run after a long sleep, not a backlog', async () => {
    const { cron, fired } = setup();
    await cron.upsert(job);
    await cron.tick(T0 + 3 * 60 * min);
    expect(fired.map((e) => e.scheduled_at)).toEqual(['2026-12-02T17:00:00.000Z']);
  });

  it('honours the time zone', async () => {
    const { cron, fired } = setup();
    await cron.upsert({ ...job, cron: '0 16 * * *', timezone: 'Europe/Berlin' });
    await cron.tick(Date.parse('2026-12-02T15:00:00Z'));
    expect(fired.map((e) => e.scheduled_at)).toEqual(['2026-12-02T15:00:00.000Z']);
  });

  it('does not fire disabled or removed schedules, and picks up changes', async () => {
    const { cron, fired, setNow } = setup();
    await cron.upsert({ ...job, enabled: false });
    await cron.upsert({ ...job, id: 'S2' });
    await cron.remove({ tenant: 'acme', id: 'S2' });
    await cron.tick(T0 + 10 * min);
    expect(fired).toEqual([]);
    setNow(T0 + 10 * min);
    await cron.upsert({ ...job, cron: '* * * * *' });
    await cron.tick(T0 + 11 * min);
    expect(fired.map((e) => e.scheduled_at)).toEqual(['2026-12-02T14:11:00.000Z']);
  });

  it('keeps ticking when a fire fails', async () => {
    let calls = 0;
    const cron = new LocalCron({
      fire: async () => {
        calls += 1;
        throw new Error('table down');
      },
      clock: { now: () => T0 },
      logger: silentLogger,
    });
    await cron.upsert(job);
    await expect(cron.tick(T0 + 5 * min)).resolves.toHaveLength(1);
    await expect(cron.tick(T0 + 10 * min)).resolves.toHaveLength(1);
    expect(calls).toBe(2);
  });
});

describe('LocalCron.start', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires from its own timer once the minute comes, and stops when told', async () => {
    vi.useFakeTimers({ now: T0 });
    const fired: ScheduledEvent[] = [];
    const cron = new LocalCron({
      fire: async (e) => {
        fired.push(e);
      },
      clock: { now: () => Date.now() },
      logger: silentLogger,
    });
    await cron.upsert({ ...job, cron: '* * * * *' });
    cron.start();
    await vi.advanceTimersByTimeAsync(29_000);
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fired.map((e) => e.scheduled_at)).toEqual(['2026-12-02T14:01:00.000Z']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fired).toHaveLength(2);
    cron.stop();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(fired).toHaveLength(2);
  });
});

describe('scheduledSlot', () => {
  it('is the scheduled minute from the event, else the current minute', () => {
    expect(scheduledSlot('2026-12-02T14:05:00Z', T0)).toBe('2026-12-02T14:05:00.000Z');
    expect(scheduledSlot('2026-12-02T14:05:00.250Z', T0)).toBe('2026-12-02T14:05:00.000Z');
    expect(scheduledSlot('<aws.scheduler.scheduled-time>', T0)).toBe('2026-12-02T14:00:00.000Z');
    expect(scheduledSlot(undefined, T0)).toBe('2026-12-02T14:00:00.000Z');
  });
});
