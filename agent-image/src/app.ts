import {
  AgentTaskRequest,
  LEGACY_SESSION_SENTINELS,
  SESSION_ID_PATTERN,
} from '@reprise/functions/agent-events';
import { AppError, ConflictError, NotFoundError, ValidationError } from '@reprise/functions/errors';
import { assertTaskOptionsSupported } from '@reprise/functions/lib/runtime-options';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { bearerAuth } from './auth';
import { createEventChannel } from './ndjson';
import { TaskRegistry } from './task-registry';
import { runTask, type TaskDeps } from './task-runner';
import { fileExists } from './transcripts';

export interface AgentServerDeps extends TaskDeps {
  token: string;
  registry?: TaskRegistry;
  defaultTimeoutSeconds?: number;
}

const invalidSessionId = () => new AppError(400, 'invalid_session_id', 'The session id is malformed');

const checkSessionId = (id: string) => {
  if (!SESSION_ID_PATTERN.test(id) || LEGACY_SESSION_SENTINELS.includes(id)) throw invalidSessionId();
};

const parseTask = async (raw: () => Promise<unknown>): Promise<AgentTaskRequest> => {
  const body = await raw().catch(() => {
    throw new ValidationError('The body must be JSON');
  });
  const parsed = AgentTaskRequest.safeParse(body);
  if (!parsed.success) {
    if (parsed.error.issues.some((issue) => issue.path[0] === 'session_id')) throw invalidSessionId();
    const details = parsed.error.issues.map((issue) => ({
      path: issue.path.join('.'),
      message: issue.message,
    }));
    throw new ValidationError('The task body is invalid', details);
  }
  checkSessionId(parsed.data.session_id);
  return parsed.data;
};

/** The agent server: health, one streamed turn per `POST /api/task`, session state and cancel. */
export const createAgentServer = (deps: AgentServerDeps) => {
  const registry = deps.registry ?? new TaskRegistry();
  const app = new Hono();
  app.onError((err, c) => {
    if (err instanceof AppError) return c.json(err.toBody(), err.status as 400);
    deps.logger.error('unhandled_error', { error: err.name });
    return c.json({ error: { code: 'internal', message: 'Internal error' } }, 500);
  });
  app.notFound((c) => c.json(new NotFoundError('Route').toBody(), 404));

  app.get('/health', (c) => c.json({ status: 'ok' }));
  // Health checks arrive every few seconds; everything else gets one line (never bodies or tokens).
  app.use('/api/*', async (c, next) => {
    const started = Date.now();
    await next();
    deps.logger.info('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Date.now() - started,
    });
  });
  app.use('/api/*', bearerAuth(deps.token));
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: 1024 * 1024,
      onError: (c) => c.json({ error: { code: 'payload_too_large', message: 'Body too large' } }, 413),
    }),
  );

  app.post('/api/task', async (c) => {
    const request = await parseTask(() => c.req.json());
    assertTaskOptionsSupported(deps.runtime.name, request);
    if (registry.isRunning(request.execution_id)) {
      throw new ConflictError('This execution is already running');
    }
    // A fork writes a new session and only reads its source, so it does not reserve the source.
    const fork = request.resume === true && request.fork_session === true;
    const controller = registry.acquire(request.execution_id, fork ? null : request.session_id);
    if (!controller) throw new ConflictError('Another turn is writing to this session', 'session_busy');
    const channel = createEventChannel();
    const seconds = request.timeout_seconds ?? deps.defaultTimeoutSeconds ?? 600;
    const timer = setTimeout(() => controller.abort('timeout'), seconds * 1000);
    const run = runTask(
      { ...deps, locks: registry },
      { ...request, timeout_seconds: seconds },
      channel.write,
      controller.signal,
    )
      .then(channel.write)
      .catch((error: unknown) =>
        deps.logger.error('task_stream_failed', { error: String(error).slice(0, 200) }),
      )
      .finally(() => {
        clearTimeout(timer);
        channel.close();
      });
    registry.track(request.execution_id, run);
    return new Response(channel.readable, {
      headers: { 'content-type': 'application/x-ndjson', 'cache-control': 'no-cache' },
    });
  });

  app.get('/api/sessions/:id', async (c) => {
    const id = c.req.param('id');
    checkSessionId(id);
    if (await fileExists(deps.runtime.transcriptPath(id))) return c.json({ id, state: 'present' });
    if (await deps.archive.has(id)) return c.json({ id, state: 'archived' });
    return c.json({ id, state: 'missing' });
  });

  app.post('/api/task/:execution_id/cancel', (c) => {
    if (!registry.cancel(c.req.param('execution_id'))) throw new NotFoundError('Running task');
    return c.json({ status: 'cancelling' }, 202);
  });

  return app;
};
