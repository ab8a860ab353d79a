import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { CoreDeps } from '../core/deps';
import type { ReadinessCheck } from '../core/readiness';
import { AppError, NotFoundError } from '../lib/errors';
import { MAX_BODY_BYTES } from '../lib/schemas/tasks';
import type { SchedulerPort } from '../scheduling/scheduler-port';
import type { Authenticator } from './auth';
import type { AppEnv } from './env';
import { renderError } from './errors';
import { allowedMethods } from './method-not-allowed';
import { authenticate } from './middleware/authenticate';
import { jsonOnly } from './middleware/json-only';
import { DEFAULT_RATE_LIMIT, type RateLimit, rateLimit } from './middleware/rate-limit';
import { requestContext } from './middleware/request-context';
import { openApiDocument } from './openapi';
import { agentRoutes } from './routes/agents';
import { chatRoutes } from './routes/chats';
import { executionRoutes } from './routes/executions';
import { keyRoutes } from './routes/keys';
import { meRoutes } from './routes/me';
import { scheduleRoutes } from './routes/schedules';
import { systemRoutes } from './routes/system';
import { taskRoutes } from './routes/tasks';
import { userRoutes } from './routes/users';

export interface AppDeps {
  readonly version: string;
  readonly auth: Authenticator;
  readonly core: CoreDeps;
  /** EventBridge Scheduler in AWS, the in-process cron locally. */
  readonly scheduler: SchedulerPort;
  /** Per-tenant request rate (defaults to DEFAULT_RATE_LIMIT). */
  readonly rateLimit?: RateLimit;
  /** The SPA's origin when it is served from elsewhere (CloudFront in AWS); same-origin locally. */
  readonly corsOrigin?: string | undefined;
  /** Readiness probes beyond the table (e.g. the local fleet's start-up); see GET /api/ready. */
  readonly readiness?: Record<string, ReadinessCheck>;
}

export function createApp(deps: AppDeps) {
  const api = new Hono<AppEnv>();
  api.route(
    '/',
    systemRoutes(deps.version, () => openApiDocument(deps.version), {
      table: async () => {
        await deps.core.stores.users.listTenants();
      },
      ...deps.readiness,
    }),
  );
  api.use('*', authenticate(deps.auth));
  api.use('*', rateLimit(deps.rateLimit ?? DEFAULT_RATE_LIMIT, deps.core.clock));
  for (const routes of [
    meRoutes(),
    userRoutes(deps.core),
    agentRoutes(deps.core, deps.scheduler),
    taskRoutes(deps.core),
    executionRoutes(deps.core),
    chatRoutes(deps.core),
    keyRoutes(deps.core),
    scheduleRoutes(deps.core, deps.scheduler),
  ]) {
    api.route('/', routes);
  }

  const app = new Hono<AppEnv>();
  app.use('*', requestContext(deps.core.logger));
  if (deps.corsOrigin) {
    app.use(
      '/api/*',
      cors({
        origin: deps.corsOrigin,
        allowHeaders: ['Authorization', 'Content-Type', 'X-Api-Key', 'Idempotency-Key', 'Last-Event-ID'],
        allowMethods: ['GET', 'POST', 'PUT', 'DELETE'],
        maxAge: 600,
      }),
    );
  }
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AppError(413, 'payload_too_large', 'Request body is too large');
      },
    }),
  );
  app.use('/api/*', jsonOnly());
  app.route('/api', api);
  const allowed = allowedMethods(app);
  app.notFound((c) => {
    const methods = allowed(c.req.path);
    if (methods.length === 0) return c.json(new NotFoundError('Route').toBody(), 404);
    c.header('allow', methods.join(', '));
    return c.json(
      new AppError(405, 'method_not_allowed', `${c.req.method} is not allowed here`).toBody(),
      405,
    );
  });
  app.onError(renderError);
  return app;
}

export type App = ReturnType<typeof createApp>;
