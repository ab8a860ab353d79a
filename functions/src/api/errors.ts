import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AppError } from '../lib/errors';
import type { AppEnv } from './env';

/**
 * The one place errors become responses. Known errors render their code; anything else is logged
 * with the request id and answered as a bare 500 — no stack traces or AWS messages reach callers.
 */
export function renderError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof AppError) return c.json(err.toBody(), err.status as 400);
  if (err instanceof HTTPException && err.status < 500) {
    const code =
      err.status === 413 ? 'payload_too_large' : err.status === 401 ? 'unauthorized' : 'validation_error';
    return c.json({ error: { code, message: err.message || 'Bad request' } }, err.status);
  }
  c.get('log')?.error('unhandled error', { error: err.name, detail: err.message.slice(0, 200) });
  return c.json({ error: { code: 'internal', message: 'Internal error' } }, 500);
}
