import { Hono } from 'hono';
import * as z from 'zod/mini';
import { requireVisibleExecution } from '../../core/access';
import type { CoreDeps } from '../../core/deps';
import { followEvents } from '../../core/event-feed';
import { cancelExecution, executionView } from '../../core/executions';
import { EventsQuery } from '../../lib/schemas/executions';
import type { AppEnv } from '../env';
import { sseResponse } from '../sse';
import { validate } from '../validate';

const IdParam = z.object({ id: z.string().check(z.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/)) });

export function executionRoutes(deps: CoreDeps) {
  return new Hono<AppEnv>()
    .get('/executions/:id', validate('param', IdParam), async (c) => {
      const who = c.get('identity');
      const { execution, continuations } = await requireVisibleExecution(
        deps.stores,
        who,
        c.req.valid('param').id,
      );
      return c.json(await executionView(deps, who, execution, continuations));
    })
    .post('/executions/:id/cancel', validate('param', IdParam), async (c) => {
      const e = await cancelExecution(deps, c.get('identity'), c.req.valid('param').id);
      return c.json({ execution_id: e.id, status: e.status }, 202);
    })
    .get('/executions/:id/events', validate('param', IdParam), validate('query', EventsQuery), async (c) => {
      const who = c.get('identity');
      const { execution } = await requireVisibleExecution(deps.stores, who, c.req.valid('param').id);
      const q = c.req.valid('query');
      const lastEventId = Number(c.req.header('last-event-id'));
      const after = Number.isInteger(lastEventId) && lastEventId >= 0 ? lastEventId : (q.after ?? 0);
      if (q.format === 'json') {
        const page = await followEvents(deps, execution, after, (q.wait ?? 0) * 1000);
        return c.json(page);
      }
      return sseResponse(c, deps, execution, after);
    });
}
