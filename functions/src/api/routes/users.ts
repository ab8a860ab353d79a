import { Hono } from 'hono';
import type { CoreDeps } from '../../core/deps';
import type { UserList } from '../../lib/schemas/common';
import type { AppEnv } from '../env';

/** The caller's tenant members (id, email, role) — names for the ids the other routes return. */
export const userRoutes = (deps: CoreDeps) =>
  new Hono<AppEnv>().get('/users', async (c) => {
    const users = await deps.stores.users.listUsers(c.get('identity').tenant);
    const body: UserList = { items: users.map(({ user_id, email, role }) => ({ user_id, email, role })) };
    return c.json(body);
  });
