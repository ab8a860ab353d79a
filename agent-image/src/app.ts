import { type AgentEvent, AgentTaskRequest, isWellFormedSessionId } from '@reprise/functions/agent-events';
import { errorResponse } from '@reprise/functions/api/errors';
import { AppError, ConflictError, NotFoundError, ValidationError } from '@reprise/functions/errors';
import { assertTaskOptionsSupported } from '@reprise/functions/lib/runtime-options';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { bearerAuth } from './auth';
import { createEventChannel } from './ndjson';
import { TaskRegistry } from './task-registry';
import { runTask, type TaskDeps } from './task-runner';
import { fileExists } from './transcripts';
import type { WarmPool } from './warm-pool';

export interface AgentServerDeps extends TaskDeps {
  token: string;
  registry?: TaskRegistry;
  /** The idle CLI processes between chat turns, for `GET/DELETE /api/warm`. */
  warm?: WarmPool;
  defaultTimeoutSeconds?: number;
}

const invalidSessionId = () => new AppError(400, 'invalid_session_id', 'The session id is malformed');

const checkSessionId = (id: string) => {
  if (!isWellFormedSessionId(id)) throw invalidSessionId();
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
  app.onError((err, c) => errorResponse(err, c, deps.logger));
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
      onError: () => {
        throw new AppError(413, 'payload_too_large', 'Request body is too large');
      },
    }),
  );

  app.post('/api/task', async (c) => {
    const request = await parseTask(() => c.req.json());
    assertTaskOptionsSupported(deps.runtime.name, request);
    // A fork writes a new session and only reads its source, so it does not reserve the source.
    const fork = request.resume === true && request.fork_session === true;
    const controller = await registry.acquire(request.execution_id, fork ? null : request.session_id);
    if (controller === 'running') throw new ConflictError('This execution is already running');
    if (controller === 'busy')
      throw new ConflictError('Another turn is writing to this session', 'session_busy');
    const channel = createEventChannel();
    const seconds = request.timeout_seconds ?? deps.defaultTimeoutSeconds ?? 600;
    const timer = setTimeout(() => controller.abort('timeout'), seconds * 1000);
    const emit = (event: AgentEvent) => {
      channel.write(event);
      if (event.type !== 'result') return;
      // The turn is over for its caller (the platform stops reading here); the stream stays open
      // until the transcript is archived, and the session's next turn waits for that.
      clearTimeout(timer);
      registry.reported(request.execution_id);
    };
    const run = runTask(
      { ...deps, locks: registry },
      { ...request, timeout_seconds: seconds },
      emit,
      controller.signal,
    )
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

  // Operators and tests see which chats are warm and in which process; a drop makes the next turn cold.
  app.get('/api/warm', (c) => c.json({ size: deps.warm?.size ?? 0, items: deps.warm?.list() ?? [] }));

  app.delete('/api/warm/:session_id', async (c) => {
    const id = c.req.param('session_id');
    checkSessionId(id);
    if (!(await deps.warm?.drop(id))) throw new NotFoundError('Warm process');
    return c.body(null, 204);
  });

  return app;
};
