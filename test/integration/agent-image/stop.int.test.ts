import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type AgentServerProcess,
  agentServerPerFile,
  startAgentServerProcess,
} from '../../helpers/agent-server';
import type { ScriptedModel } from '../../helpers/scripted-model';
import { firstEvent, post, processesMentioning, runTurn, runTurnFrom, task, waitFor } from './task-client';

let model: ScriptedModel;
let server: AgentServerProcess;

agentServerPerFile((s, m) => {
  server = s;
  model = m;
});

describe('agent server timeouts and cancel', () => {
  it('ends a run that outlives timeout_seconds as timeout and leaves no claude process behind', async () => {
    const body = task('sleep: 30', { timeout_seconds: 1 });
    const turn = await runTurn(server, body);
    expect(turn.result).toMatchObject({ status: 'timeout', error: { code: 'timeout' } });
    expect(processesMentioning(body.session_id)).toEqual([]);
  });

  it('cancels a running turn on request and leaves no claude process behind', async () => {
    const body = task('sleep: 30');
    const { rest } = await firstEvent(await post(server, '/api/task', body));
    await waitFor(() => processesMentioning(body.session_id).length > 0);
    const cancel = await post(server, `/api/task/${body.execution_id}/cancel`);
    expect(cancel.status).toBe(202);
    const events = await rest;
    expect(events.at(-1)).toMatchObject({
      type: 'result',
      status: 'cancelled',
      error: { code: 'cancelled' },
    });
    expect(processesMentioning(body.session_id)).toEqual([]);
  });

  it('cancels running turns and exits on SIGTERM, leaving no claude process behind', async () => {
    const own = await startAgentServerProcess({ modelUrl: model.url });
    const body = task('sleep: 30');
    const { rest } = await firstEvent(await post(own, '/api/task', body));
    await waitFor(() => processesMentioning(body.session_id).length > 0);
    const stopped = own.stop();
    const events = await rest;
    await stopped;
    expect(events.at(-1)).toMatchObject({ type: 'result', status: 'cancelled' });
    expect(processesMentioning(body.session_id)).toEqual([]);
  });

  it('keeps a turn running to completion when its HTTP client disconnects', async () => {
    const body = task('sleep: 1');
    const controller = new AbortController();
    const response = await fetch(`${server.url}/api/task`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    const { rest } = await firstEvent(response);
    controller.abort();
    await expect(rest).rejects.toThrow();
    const next = await resumeWhenFree(body.session_id);
    expect(next.result.status).toBe('success');
    const archived = readFileSync(join(server.archiveDir, `${body.session_id}.jsonl`), 'utf8');
    expect(archived).toContain('Slept for 1 seconds as asked.');
  });
});

/** Retries while the abandoned turn still holds the session (409); it then must have finished. */
const resumeWhenFree = async (sessionId: string) => {
  for (;;) {
    const response = await post(server, '/api/task', task('recap', { session_id: sessionId, resume: true }));
    if (response.status !== 409) return runTurnFrom(response);
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};
