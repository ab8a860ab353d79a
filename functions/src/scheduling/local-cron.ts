import type { Cron } from 'croner';
import type { Clock } from '../core/ports';
import { cronJob } from '../core/schedule-cron';
import type { SchedulingDeps } from '../core/schedule-deps';
import { fireSchedule, type ScheduledEvent } from '../core/schedule-fire';
import type { Logger } from '../lib/log';
import type { ScheduledJob, SchedulerPort } from './scheduler-port';

export interface LocalCronOptions {
  /** What a due schedule calls: the same fire function the AWS `scheduled` handler uses. */
  readonly fire: (event: ScheduledEvent) => Promise<unknown>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Longest sleep between checks, so a jump of the wall clock is noticed. */
  readonly maxSleepMs?: number;
}

interface Entry {
  readonly job: ScheduledJob;
  readonly cron: Cron;
  /** Runs up to this instant have been handled. */
  since: number;
}

/** Like EventBridge, a cron that was asleep does not replay a backlog: at most the latest due run. */
const CATCH_UP_MS = 60 * 60_000;
const key = (s: Pick<ScheduledJob, 'tenant' | 'id'>) => `${s.tenant}/${s.id}`;

/**
 * The local stand-in for EventBridge Scheduler: croner computes when each enabled schedule is
 * due, and `tick(now)` fires what fell due since the previous tick. `start()` drives it from a
 * timer; tests call `tick` with their own clock instead of sleeping.
 */
export class LocalCron implements SchedulerPort {
  private readonly entries = new Map<string, Entry>();
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: LocalCronOptions) {}

  async upsert(job: ScheduledJob): Promise<void> {
    if (job.enabled) {
      const entry = { job, cron: cronJob(job.cron, job.timezone), since: this.options.clock.now() };
      this.entries.set(key(job), entry);
    } else {
      this.entries.delete(key(job));
    }
    this.arm();
  }

  async remove(job: Pick<ScheduledJob, 'tenant' | 'id'>): Promise<void> {
    this.entries.delete(key(job));
    this.arm();
  }

  /** Fires every schedule due in (previous tick, now]; ticks never overlap. */
  tick(now: number = this.options.clock.now()): Promise<ScheduledEvent[]> {
    const run = this.chain.then(() => this.fireDue(now));
    this.chain = run.catch(() => {});
    return run;
  }

  start(): void {
    this.started = true;
    this.arm();
  }

  stop(): void {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async fireDue(now: number): Promise<ScheduledEvent[]> {
    const due: ScheduledEvent[] = [];
    for (const entry of this.entries.values()) {
      let latest: Date | null = null;
      let next = entry.cron.nextRun(new Date(Math.max(entry.since, now - CATCH_UP_MS)));
      while (next && next.getTime() <= now) {
        latest = next;
        next = entry.cron.nextRun(next);
      }
      entry.since = Math.max(entry.since, now);
      if (latest) {
        due.push({ tenant: entry.job.tenant, schedule_id: entry.job.id, scheduled_at: latest.toISOString() });
      }
    }
    await Promise.all(
      due.map((event) =>
        this.options.fire(event).catch((e: unknown) =>
          this.options.logger.error('scheduled run failed', {
            tenant: event.tenant,
            schedule_id: event.schedule_id,
            error: e instanceof Error ? e.message : String(e),
          }),
        ),
      ),
    );
    return due;
  }

  /** Sleeps until the earliest next run (or maxSleepMs), ticks, and sleeps again. */
  private arm(): void {
    if (!this.started) return;
    if (this.timer) clearTimeout(this.timer);
    const now = this.options.clock.now();
    const nexts = [...this.entries.values()].map((e) => e.cron.nextRun(new Date(now))?.getTime() ?? Infinity);
    const wait = Math.min(this.options.maxSleepMs ?? 30_000, Math.min(...nexts) - now);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick().finally(() => this.arm());
    }, Math.max(wait, 0) + 5);
    this.timer.unref();
  }
}

/** The local cron wired to fire through the core, like the `scheduled` Lambda does. */
export function createLocalCron(deps: SchedulingDeps, options: Partial<LocalCronOptions> = {}): LocalCron {
  return new LocalCron({
    fire: (event) => fireSchedule(deps, event),
    clock: deps.clock,
    logger: deps.logger,
    ...options,
  });
}

/**
 * Registers every enabled schedule in the table (at local start-up). It walks tenants → agents →
 * schedules, each a Query; only this background job lists tenants.
 */
export async function loadSchedules(deps: SchedulingDeps, scheduler: SchedulerPort): Promise<number> {
  let count = 0;
  for (const tenant of await deps.stores.users.listTenants()) {
    for (const agent of await deps.stores.agents.listAgentsByTenant(tenant)) {
      for (const schedule of await deps.stores.schedules.listSchedulesByAgent(tenant, agent.name)) {
        await scheduler.upsert(schedule);
        count += 1;
      }
    }
  }
  return count;
}
