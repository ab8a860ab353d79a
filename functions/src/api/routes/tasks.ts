import { Hono } from 'hono';
import * as z from 'zod/mini';
import type { CoreDeps } from '../../core/deps';
import { executionView } from '../../core/executions';
import { submitTask } from '../../core/tasks';
import { waitForTerminal } from '../../core/wait';
import { ValidationError } from '../../lib/errors';
import { AgentName } from '../../lib/schemas/common';
import { IDEMPOTENCY_KEY_PATTERN, TaskQuery, TaskRequest } from '../../lib/schemas/tasks';
import type { AppEnv } from '../env';
import { validate } from '../validate';

export function taskRoutes(deps: CoreDeps) {
  return new Hono<AppEnv>().post(
    '/agents/:name/task',
    validate('param', z.object({ name: AgentName })),
    validate('query', TaskQuery),
    validate('json', TaskRequest),
    async (c) => {
      const who = c.get('identity');
      const key = c.req.header('idempotency-key');
      // A key the client meant to send but we would ignore could run the task twice: refuse it.
      if (key !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(key)) {
        throw new ValidationError('Invalid Idempotency-Key', [
          { path: 'Idempotency-Key', message: '1 to 255 printable ASCII characters, no spaces' },
        ]);
      }
      const submitted = await submitTask(deps, who, c.req.valid('param').name, c.req.valid('json'), {
        idempotencyKey: key,
      });
      const wait = c.req.valid('query').wait ?? 0;
      const waited = wait > 0 ? await waitForTerminal(deps, submitted.execution, wait * 1000) : null;
      const e = waited?.execution ?? submitted.execution;
      if (e.status !== 'queued' && e.status !== 'running') {
        return c.json(await executionView(deps, who, e, waited?.continuations), 200);
      }
      return c.json(
        {
          execution_id: e.id,
          status: e.status,
          session_id: e.claude_session_id,
          ...(submitted.chat_session_id ? { chat_session_id: submitted.chat_session_id } : {}),
          events_url: `/api/executions/${e.id}/events`,
        },
        202,
      );
    },
  );
}
