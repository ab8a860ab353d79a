import { createAwsCoreDeps } from '../aws/core-deps';
import { type FireResult, fireSchedule, ScheduledEvent } from '../core/schedule-fire';

const deps = createAwsCoreDeps('scheduled');

/**
 * EventBridge Scheduler → one execution per (schedule, scheduled time). The input is
 * `{tenant, schedule_id, scheduled_at: <aws.scheduler.scheduled-time>}` (see aws-scheduler.ts).
 */
export const handler = async (event: unknown): Promise<FireResult> =>
  fireSchedule(deps, ScheduledEvent.parse(event));
