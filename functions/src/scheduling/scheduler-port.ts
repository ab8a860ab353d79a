import type { ScheduleRecord } from '../data/stores/schedules';

/** What a scheduler needs to know about a schedule: when, where, and whether it is on. */
export type ScheduledJob = Pick<ScheduleRecord, 'tenant' | 'id' | 'agent' | 'cron' | 'timezone' | 'enabled'>;

/**
 * The clock that fires schedules: EventBridge Scheduler in AWS, an in-process cron locally.
 * The table stays the source of truth — a fire re-reads the schedule, so a scheduler that is
 * briefly out of date can only cause a no-op, never a run of a disabled or deleted schedule.
 */
export interface SchedulerPort {
  /** Create or replace the trigger for this schedule (disabled schedules are kept, paused). */
  upsert(schedule: ScheduledJob): Promise<void>;
  /** Remove the trigger; removing one that does not exist is not an error. */
  remove(schedule: Pick<ScheduledJob, 'tenant' | 'id'>): Promise<void>;
}
