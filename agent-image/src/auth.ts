import { createHash, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '@reprise/functions/errors';
import type { MiddlewareHandler } from 'hono';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Bearer check in constant time; hashing first keeps the token's length secret too. */
export const bearerAuth = (token: string): MiddlewareHandler => {
  const expected = digest(token);
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const presented = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (!presented || !timingSafeEqual(digest(presented), expected)) throw new UnauthorizedError();
    await next();
  };
};
