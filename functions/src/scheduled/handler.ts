import { createAwsCoreDeps } from '../aws/core-deps';
import { withScheduleStore } from '../core/schedule-deps';
import { type FireResult, fireSchedule, ScheduledEvent } from '../core/schedule-fire';
import { createDb } from '../data/client';
import { required } from '../lib/env';

const deps = withScheduleStore(createAwsCoreDeps('scheduled'), () =>
  createDb({ tableName: required(process.env, 'TABLE_NAME'), region: required(process.env, 'AWS_REGION') }),
);

/**
 * EventBridge Scheduler → one execution per (schedule, scheduled time). The input is
 * `{tenant, schedule_id, scheduled_at: <aws.scheduler.scheduled-time>}` (see aws-scheduler.ts).
 */
export const handler = async (event: unknown): Promise<FireResult> =>
  fireSchedule(deps, ScheduledEvent.parse(event));
