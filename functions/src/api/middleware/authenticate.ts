import { createMiddleware } from 'hono/factory';
import type { Identity } from '../../core/identity';
import { UnauthorizedError } from '../../lib/errors';
import type { Authenticator } from '../auth';
import type { AppEnv } from '../env';

export const authenticate = (auth: Authenticator) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const header = c.req.header('authorization');
    const apiKey = c.req.header('x-api-key');
    let identity: Identity;
    if (header) {
      const [scheme, token] = header.split(' ', 2);
      if (scheme?.toLowerCase() !== 'bearer' || !token)
        throw new UnauthorizedError('Expected a Bearer token');
      identity = await auth.fromBearer(token);
    } else if (apiKey) {
      identity = await auth.fromApiKey(apiKey);
    } else {
      throw new UnauthorizedError();
    }
    c.set('identity', identity);
    c.set('log', c.get('log').child({ tenant: identity.tenant, user_id: identity.user_id }));
    await next();
  });
