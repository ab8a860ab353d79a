import { Hono } from 'hono';
import * as z from 'zod/mini';
import { createApiKey, deleteApiKey, listApiKeys } from '../../core/api-keys';
import type { CoreDeps } from '../../core/deps';
import { ApiKeyId, CreateApiKeyRequest } from '../../lib/schemas/keys';
import type { AppEnv } from '../env';
import { validate } from '../validate';

export const keyRoutes = (deps: CoreDeps) =>
  new Hono<AppEnv>()
    .get('/keys', async (c) => c.json({ items: await listApiKeys(deps, c.get('identity')) }))
    .post('/keys', validate('json', CreateApiKeyRequest), async (c) =>
      c.json(await createApiKey(deps, c.get('identity'), c.req.valid('json').name), 201),
    )
    .delete('/keys/:id', validate('param', z.object({ id: ApiKeyId })), async (c) => {
      await deleteApiKey(deps, c.get('identity'), c.req.valid('param').id);
      return c.body(null, 204);
    });
