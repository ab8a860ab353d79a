import * as z from 'zod/mini';
import { Timestamp } from './common';

export const ScheduleInput = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(100)),
  cron: z.string().check(z.minLength(9), z.maxLength(200)),
  timezone: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
  message: z.string().check(z.minLength(1), z.maxLength(100_000)),
  enabled: z.optional(z.boolean()),
  timeout_seconds: z.optional(z.number().check(z.int(), z.minimum(10), z.maximum(840))),
});
export type ScheduleInput = z.infer<typeof ScheduleInput>;

export const Schedule = z.object({
  id: z.string(),
  agent: z.string(),
  name: z.string(),
  cron: z.string(),
  timezone: z.string(),
  message: z.string(),
  enabled: z.boolean(),
  timeout_seconds: z.number(),
  owner_user_id: z.string(),
  next_run_at: z.nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Schedule = z.infer<typeof Schedule>;

export const ScheduleList = z.object({ items: z.array(Schedule) });
export type ScheduleList = z.infer<typeof ScheduleList>;
