import { createMiddleware } from 'hono/factory';
import { AppError } from '../../lib/errors';
import type { AppEnv } from '../env';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** HTTP/1.1 framing (RFC 9112 §6.3): a request without either header has no body. */
const hasBody = (req: Request): boolean => {
  const length = req.headers.get('content-length');
  if (length !== null) return Number(length) > 0;
  return req.headers.has('transfer-encoding');
};

/**
 * Bodies are JSON. A body sent as anything else (or untyped) would otherwise be read as `{}` and
 * silently run with defaults, so it is refused with 415 (RFC 9110 §15.5.16) before any route runs.
 */
export const jsonOnly = () =>
  createMiddleware<AppEnv>(async (c, next) => {
    const method = c.req.method;
    if ((method === 'POST' || method === 'PUT' || method === 'PATCH') && hasBody(c.req.raw)) {
      const type = c.req.header('content-type') ?? '';
      if (!JSON_TYPE.test(type)) {
        c.header('accept', 'application/json');
        throw new AppError(415, 'unsupported_media_type', 'Send the body as Content-Type: application/json');
      }
    }
    await next();
  });
