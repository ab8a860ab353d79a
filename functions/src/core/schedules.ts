import type { AgentRecord } from '../data/stores/agents';
import type { ScheduleRecord } from '../data/stores/schedules';
import { ForbiddenError, NotFoundError } from '../lib/errors';
import { ulid } from '../lib/ids';
import { sanitize } from '../lib/sanitizer';
import type { Schedule, ScheduleInput } from '../lib/schemas/schedules';
import type { SchedulerPort } from '../scheduling/scheduler-port';
import { canSeeAgent, requireVisibleAgent } from './access';
import { type Identity, isAdmin } from './identity';
import { nextRunAfter, validateCron } from './schedule-cron';
import type { SchedulingDeps } from './schedule-deps';
import { DEFAULT_TIMEOUT_SECONDS } from './tasks';

export function scheduleView(s: ScheduleRecord, now: number): Schedule {
  return {
    id: s.id,
    agent: s.agent,
    name: s.name,
    cron: s.cron,
    timezone: s.timezone,
    message: s.message,
    enabled: s.enabled,
    timeout_seconds: s.timeout_seconds,
    owner_user_id: s.owner_user_id,
    next_run_at: s.enabled ? nextRunAfter(s.cron, s.timezone, now) : null,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

/** Whoever sees the agent sees its schedules; anything else is 404, like an unknown id. */
export async function requireVisibleSchedule(
  deps: SchedulingDeps,
  who: Identity,
  id: string,
): Promise<{ schedule: ScheduleRecord; agent: AgentRecord }> {
  // The key starts with the caller's tenant, so another tenant's schedule is simply not found.
  const schedule = await deps.stores.schedules.getSchedule(who.tenant, id);
  const agent = schedule ? await deps.stores.agents.getAgent(who.tenant, schedule.agent) : null;
  if (!schedule || !agent || !canSeeAgent(who, agent)) throw new NotFoundError('Schedule');
  return { schedule, agent };
}

/** Changing, deleting or running a schedule: its creator, the agent's owner, or an admin. */
export function requireScheduleEditor(who: Identity, schedule: ScheduleRecord, agent: AgentRecord): void {
  if (!(isAdmin(who) || schedule.owner_user_id === who.user_id || agent.owner_user_id === who.user_id)) {
    throw new ForbiddenError("Only the schedule's creator, the agent owner or an admin may do this");
  }
}

export async function listSchedules(
  deps: SchedulingDeps,
  who: Identity,
  agentName: string,
): Promise<Schedule[]> {
  const agent = await requireVisibleAgent(deps.stores, who, agentName);
  const all = await deps.stores.schedules.listSchedulesByAgent(who.tenant, agent.name);
  const now = deps.clock.now();
  return all.map((s) => scheduleView(s, now));
}

export async function getSchedule(deps: SchedulingDeps, who: Identity, id: string): Promise<Schedule> {
  const { schedule } = await requireVisibleSchedule(deps, who, id);
  return scheduleView(schedule, deps.clock.now());
}

/** The validated, defaulted part of a schedule that POST and PUT both take from the body. */
function definition(input: ScheduleInput) {
  const { cron, timezone } = validateCron(input.cron, input.timezone);
  return {
    // A schedule is stored, so it keeps no credential: its runs get the redacted message too.
    name: sanitize(input.name),
    cron,
    timezone,
    message: sanitize(input.message),
    enabled: input.enabled ?? true,
    timeout_seconds: input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS,
  };
}

/** Any user who may run tasks on the agent may schedule them; the runs will be theirs. */
export async function createSchedule(
  deps: SchedulingDeps,
  scheduler: SchedulerPort,
  who: Identity,
  agentName: string,
  input: ScheduleInput,
): Promise<Schedule> {
  const agent = await requireVisibleAgent(deps.stores, who, agentName);
  const now = deps.clock.now();
  const at = new Date(now).toISOString();
  const record: ScheduleRecord = {
    tenant: who.tenant,
    id: ulid(now),
    agent: agent.name,
    ...definition(input),
    owner_user_id: who.user_id,
    owner_email: who.email,
    owner_role: who.role,
    created_at: at,
    updated_at: at,
  };
  await deps.stores.schedules.createSchedule(record);
  try {
    await scheduler.upsert(record);
  } catch (e) {
    // No schedule without its trigger: the caller sees the failure and can simply retry.
    await deps.stores.schedules.deleteSchedule(record.tenant, record.id);
    throw e;
  }
  return scheduleView(record, now);
}

/** PUT replaces the definition; the creator (whose runs these are) never changes. */
export async function updateSchedule(
  deps: SchedulingDeps,
  scheduler: SchedulerPort,
  who: Identity,
  id: string,
  input: ScheduleInput,
): Promise<Schedule> {
  const { schedule, agent } = await requireVisibleSchedule(deps, who, id);
  requireScheduleEditor(who, schedule, agent);
  const now = deps.clock.now();
  const next: ScheduleRecord = {
    ...schedule,
    ...definition(input),
    updated_at: new Date(now).toISOString(),
  };
  await deps.stores.schedules.replaceSchedule(next);
  try {
    await scheduler.upsert(next);
  } catch (e) {
    // Keep the table and the trigger in step: put back what the trigger still says.
    await deps.stores.schedules.replaceSchedule(schedule);
    throw e;
  }
  return scheduleView(next, now);
}

export async function deleteSchedule(
  deps: SchedulingDeps,
  scheduler: SchedulerPort,
  who: Identity,
  id: string,
): Promise<void> {
  const { schedule, agent } = await requireVisibleSchedule(deps, who, id);
  requireScheduleEditor(who, schedule, agent);
  // Trigger first: if the table delete then fails, the schedule is still listed and a retried
  // DELETE finishes the job (removing a missing trigger is not an error).
  await scheduler.remove(schedule);
  await deps.stores.schedules.deleteSchedule(schedule.tenant, schedule.id);
}
