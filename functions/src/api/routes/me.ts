import { Hono } from 'hono';
import type { AppEnv } from '../env';

export const meRoutes = () =>
  new Hono<AppEnv>().get('/me', (c) => {
    const { user_id, email, tenant, role } = c.get('identity');
    return c.json({ user_id, email, tenant, role });
  });
