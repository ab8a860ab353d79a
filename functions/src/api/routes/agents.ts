import { Hono } from 'hono';
import * as z from 'zod/mini';
import { requireVisibleAgent } from '../../core/access';
import {
  agentView,
  createAgent,
  deleteAgent,
  listAgents,
  requestWake,
  setAgentRunning,
  shareAgent,
  updateAgentSettings,
} from '../../core/agents';
import { listChats } from '../../core/chats';
import type { CoreDeps } from '../../core/deps';
import { toSummary } from '../../core/executions';
import { isAdmin } from '../../core/identity';
import { AgentSettingsRequest, CreateAgentRequest, SharingRequest } from '../../lib/schemas/agents';
import { AgentName } from '../../lib/schemas/common';
import { ExecutionListQuery } from '../../lib/schemas/executions';
import type { SchedulerPort } from '../../scheduling/scheduler-port';
import type { AppEnv } from '../env';
import { validate } from '../validate';

const NameParam = z.object({ name: AgentName });

export function agentRoutes(deps: CoreDeps, scheduler: SchedulerPort) {
  return new Hono<AppEnv>()
    .get('/agents', async (c) => c.json({ items: await listAgents(deps, c.get('identity')) }))
    .post('/agents', validate('json', CreateAgentRequest), async (c) =>
      c.json(await createAgent(deps, c.get('identity'), c.req.valid('json')), 201),
    )
    .get('/agents/:name', validate('param', NameParam), async (c) => {
      const agent = await requireVisibleAgent(deps.stores, c.get('identity'), c.req.valid('param').name);
      return c.json(await agentView(deps, agent));
    })
    .delete('/agents/:name', validate('param', NameParam), async (c) => {
      await deleteAgent(deps, scheduler, c.get('identity'), c.req.valid('param').name);
      return c.body(null, 204);
    })
    .post('/agents/:name/start', validate('param', NameParam), async (c) =>
      c.json(await setAgentRunning(deps, c.get('identity'), c.req.valid('param').name, true), 202),
    )
    .post('/agents/:name/stop', validate('param', NameParam), async (c) =>
      c.json(await setAgentRunning(deps, c.get('identity'), c.req.valid('param').name, false), 202),
    )
    .post('/agents/:name/wake', validate('param', NameParam), async (c) =>
      c.json(await requestWake(deps, c.get('identity'), c.req.valid('param').name), 202),
    )
    .put(
      '/agents/:name/settings',
      validate('param', NameParam),
      validate('json', AgentSettingsRequest),
      async (c) =>
        c.json(
          await updateAgentSettings(deps, c.get('identity'), c.req.valid('param').name, c.req.valid('json')),
        ),
    )
    .put('/agents/:name/sharing', validate('param', NameParam), validate('json', SharingRequest), async (c) =>
      c.json(
        await shareAgent(deps, c.get('identity'), c.req.valid('param').name, c.req.valid('json').shared_with),
      ),
    )
    .get(
      '/agents/:name/executions',
      validate('param', NameParam),
      validate('query', ExecutionListQuery),
      async (c) => {
        const who = c.get('identity');
        const { name } = c.req.valid('param');
        const q = c.req.valid('query');
        await requireVisibleAgent(deps.stores, who, name);
        const page = await deps.stores.executions.listExecutionsByAgent(who.tenant, name, {
          limit: q.limit ?? 25,
          cursor: q.cursor,
          status: q.status,
          source: q.source,
          ownerUserId: q.owner_user_id,
          visibleTo: { user_id: who.user_id, admin: isAdmin(who) },
        });
        return c.json({ items: page.items.map(toSummary), next_cursor: page.cursor });
      },
    )
    .get('/agents/:name/chats', validate('param', NameParam), async (c) =>
      c.json({ items: await listChats(deps, c.get('identity'), c.req.valid('param').name) }),
    );
}
