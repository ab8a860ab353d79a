import * as z from 'zod/mini';
import type { ScheduleRecord } from '../data/stores/schedules';
import { AppError } from '../lib/errors';
import { ulid } from '../lib/ids';
import type { Identity } from './identity';
import type { SchedulingDeps } from './schedule-deps';
import { failedRun } from './schedule-failed-run';
import { requireScheduleEditor, requireVisibleSchedule } from './schedules';
import { type Submitted, submitTask } from './tasks';

/** What EventBridge Scheduler (or the local cron) sends: which schedule, and for which minute. */
export const ScheduledEvent = z.object({
  tenant: z.string().check(z.minLength(1)),
  schedule_id: z.string().check(z.minLength(1)),
  scheduled_at: z.optional(z.string()),
});
export type ScheduledEvent = z.infer<typeof ScheduledEvent>;

export type FireResult =
  | { readonly outcome: 'created' | 'failed'; readonly execution_id: string; readonly scheduled_at: string }
  | { readonly outcome: 'duplicate'; readonly scheduled_at: string }
  | { readonly outcome: 'skipped'; readonly reason: 'not_found' | 'disabled' | 'agent_not_found' };

/** Scheduled runs act as the schedule's creator: the runs are theirs to continue as chats. */
export const creatorOf = (s: ScheduleRecord): Identity => ({
  user_id: s.owner_user_id,
  email: s.owner_email,
  tenant: s.tenant,
  role: s.owner_role,
  via: 'jwt',
});

/** The slot a fire belongs to: its scheduled minute (now, if the event carries no usable time). */
export function scheduledSlot(scheduledAt: string | undefined, now: number): string {
  const parsed = scheduledAt ? Date.parse(scheduledAt) : Number.NaN;
  const at = Number.isNaN(parsed) ? now : parsed;
  return new Date(Math.floor(at / 60_000) * 60_000).toISOString();
}

/**
 * Turns one due (schedule, minute) into exactly one execution, however often it is invoked.
 * The table decides, not the trigger: a disabled or deleted schedule does nothing.
 */
export async function fireSchedule(deps: SchedulingDeps, event: ScheduledEvent): Promise<FireResult> {
  const { stores } = deps;
  const log = deps.logger.child({ tenant: event.tenant, schedule_id: event.schedule_id });
  const schedule = await stores.schedules.getSchedule(event.tenant, event.schedule_id);
  if (!schedule) return { outcome: 'skipped', reason: 'not_found' };
  if (!schedule.enabled) return { outcome: 'skipped', reason: 'disabled' };
  const agent = await stores.agents.getAgent(schedule.tenant, schedule.agent);
  if (!agent) {
    log.warn('schedule fired for a missing agent', { agent: schedule.agent });
    return { outcome: 'skipped', reason: 'agent_not_found' };
  }

  const now = deps.clock.now();
  const slot = scheduledSlot(event.scheduled_at, now);
  const claimId = ulid(now);
  if (!(await stores.schedules.claimScheduledRun(schedule.tenant, schedule.id, slot, claimId))) {
    log.info('schedule slot already taken', { scheduled_at: slot });
    return { outcome: 'duplicate', scheduled_at: slot };
  }
  // Whether the execution was written decides what a failure means for the slot (see below).
  let createdId: string | null = null;
  const tracked: SchedulingDeps = {
    ...deps,
    dispatcher: {
      dispatch: (job) => {
        createdId = job.execution_id;
        return deps.dispatcher.dispatch(job);
      },
    },
  };
  let result: FireResult;
  try {
    const { execution } = await submitTask(
      tracked,
      creatorOf(schedule),
      schedule.agent,
      { message: schedule.message, timeout_seconds: schedule.timeout_seconds },
      { source: 'schedule', scheduleId: schedule.id, triggeredBy: { kind: 'schedule', id: schedule.id } },
    );
    result = { outcome: 'created', execution_id: execution.id, scheduled_at: slot };
  } catch (e) {
    if (!(e instanceof AppError)) {
      if (createdId) {
        // The execution exists but its dispatch failed: keep the slot (a retry must not run the
        // prompt twice); the stale-run sweeper fails the stranded execution.
        await stores.schedules.recordScheduledRunExecution(schedule.tenant, schedule.id, slot, createdId);
      } else {
        // Nothing was written (e.g. the fleet lookup failed): free the slot for the retry.
        await stores.schedules.releaseScheduledRun(schedule.tenant, schedule.id, slot, claimId);
      }
      throw e;
    }
    // A run that could not start is still recorded, so the schedule's owner sees why.
    const failed = failedRun(schedule, agent, e, new Date(deps.clock.now()).toISOString());
    await stores.executions.createExecution(failed);
    result = { outcome: 'failed', execution_id: failed.id, scheduled_at: slot };
  }
  await stores.schedules.recordScheduledRunExecution(schedule.tenant, schedule.id, slot, result.execution_id);
  log.info('schedule fired', { ...result });
  return result;
}

/** POST /schedules/{id}/run: the same run, now, answered like a task (409 if the agent is stopped). */
export async function runScheduleNow(deps: SchedulingDeps, who: Identity, id: string): Promise<Submitted> {
  const { schedule, agent } = await requireVisibleSchedule(deps, who, id);
  requireScheduleEditor(who, schedule, agent);
  return submitTask(
    deps,
    creatorOf(schedule),
    schedule.agent,
    { message: schedule.message, timeout_seconds: schedule.timeout_seconds },
    { source: 'schedule', scheduleId: schedule.id, triggeredBy: { kind: 'user', id: who.user_id } },
  );
}
