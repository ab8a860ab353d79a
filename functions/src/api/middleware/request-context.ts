import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import type { Logger } from '../../lib/log';
import type { AppEnv } from '../env';

/** Gives every request an id (API Gateway's when present) and a logger carrying it. */
export const requestContext = (logger: Logger) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && /^[A-Za-z0-9-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    c.set('requestId', requestId);
    c.set('log', logger.child({ request_id: requestId }));
    c.header('x-request-id', requestId);
    await next();
  });
