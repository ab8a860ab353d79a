import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError, NotFoundError } from '../lib/errors';
import type { Logger } from '../lib/log';
import type { Authenticator } from './auth';
import type { AppEnv } from './env';
import { renderError } from './errors';
import { authenticate } from './middleware/authenticate';
import { requestContext } from './middleware/request-context';
import { meRoutes } from './routes/me';
import { systemRoutes } from './routes/system';

export interface AppDeps {
  readonly version: string;
  readonly auth: Authenticator;
  readonly logger: Logger;
}

/** 100,000 characters of message can be 400 KB of UTF-8; the rest of the body is small. */
const MAX_BODY_BYTES = 1024 * 1024;

export function createApp(deps: AppDeps) {
  const api = new Hono<AppEnv>();
  api.route(
    '/',
    systemRoutes(deps.version, () => ({ openapi: '3.1.0' })),
  );
  api.use('*', authenticate(deps.auth));
  api.route('/', meRoutes());

  const app = new Hono<AppEnv>();
  app.use('*', requestContext(deps.logger));
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AppError(413, 'payload_too_large', 'Request body is too large');
      },
    }),
  );
  app.route('/api', api);
  app.notFound((c) => c.json(new NotFoundError('Route').toBody(), 404));
  app.onError(renderError);
  return app;
}

export type App = ReturnType<typeof createApp>;
