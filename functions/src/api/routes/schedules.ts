import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { SchedulingDeps } from '../../core/schedule-deps';
import { runScheduleNow } from '../../core/schedule-fire';
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  updateSchedule,
} from '../../core/schedules';
import { AgentName, Ulid } from '../../lib/schemas/common';
import { ScheduleInput } from '../../lib/schemas/schedules';
import type { SchedulerPort } from '../../scheduling/scheduler-port';
import type { AppEnv } from '../env';
import { validate } from '../validate';

const NameParam = z.object({ name: AgentName });
const IdParam = z.object({ id: Ulid });

export function scheduleRoutes(deps: SchedulingDeps, scheduler: SchedulerPort) {
  return new Hono<AppEnv>()
    .get('/agents/:name/schedules', validate('param', NameParam), async (c) =>
      c.json({ items: await listSchedules(deps, c.get('identity'), c.req.valid('param').name) }),
    )
    .post(
      '/agents/:name/schedules',
      validate('param', NameParam),
      validate('json', ScheduleInput),
      async (c) =>
        c.json(
          await createSchedule(
            deps,
            scheduler,
            c.get('identity'),
            c.req.valid('param').name,
            c.req.valid('json'),
          ),
          201,
        ),
    )
    .get('/schedules/:id', validate('param', IdParam), async (c) =>
      c.json(await getSchedule(deps, c.get('identity'), c.req.valid('param').id)),
    )
    .put('/schedules/:id', validate('param', IdParam), validate('json', ScheduleInput), async (c) =>
      c.json(
        await updateSchedule(
          deps,
          scheduler,
          c.get('identity'),
          c.req.valid('param').id,
          c.req.valid('json'),
        ),
      ),
    )
    .delete('/schedules/:id', validate('param', IdParam), async (c) => {
      await deleteSchedule(deps, scheduler, c.get('identity'), c.req.valid('param').id);
      return c.body(null, 204);
    })
    .post('/schedules/:id/run', validate('param', IdParam), async (c) => {
      const { execution } = await runScheduleNow(deps, c.get('identity'), c.req.valid('param').id);
      return c.json(
        {
          execution_id: execution.id,
          status: execution.status,
          session_id: execution.claude_session_id,
          events_url: `/api/executions/${execution.id}/events`,
        },
        202,
      );
    });
}
