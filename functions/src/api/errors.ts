import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AppError } from '../lib/errors';
import type { Logger } from '../lib/log';
import type { AppEnv } from './env';

/**
 * The one place errors become responses, for the API and the agent server alike. Known errors
 * render their code; anything else is logged and answered as a bare 500 — no stack traces or AWS
 * messages reach callers.
 */
export function errorResponse(err: Error, c: Context, log: Logger | undefined): Response {
  if (err instanceof AppError) return c.json(err.toBody(), err.status as 400);
  if (err instanceof HTTPException && err.status < 500) {
    const code =
      err.status === 413 ? 'payload_too_large' : err.status === 401 ? 'unauthorized' : 'validation_error';
    return c.json({ error: { code, message: err.message || 'Bad request' } }, err.status);
  }
  log?.error('unhandled error', { error: err.name, detail: err.message.slice(0, 200) });
  return c.json({ error: { code: 'internal', message: 'Internal error' } }, 500);
}

/** The API's onError: logs with the request's logger (it carries the request id). */
export const renderError = (err: Error, c: Context<AppEnv>): Response => errorResponse(err, c, c.get('log'));
