import { Hono } from 'hono';
import * as z from 'zod/mini';
import { getChat } from '../../core/chats';
import type { CoreDeps } from '../../core/deps';
import type { AppEnv } from '../env';
import { validate } from '../validate';

export const chatRoutes = (deps: CoreDeps) =>
  new Hono<AppEnv>().get(
    '/chats/:id',
    validate('param', z.object({ id: z.string().check(z.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/)) })),
    async (c) => c.json(await getChat(deps, c.get('identity'), c.req.valid('param').id)),
  );
