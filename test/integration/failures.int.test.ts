import { ulid } from '@reprise/functions/lib/ids';
import { sweepStaleRuns } from '@reprise/functions/runner/sweep';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientFor, startLocalStack, type TestStack } from '../helpers/local-stack';
import { processesMentioning } from './agent-image/task-client';

type Client = Awaited<ReturnType<typeof clientFor>>;
let stack: TestStack;
let bob: Client;
const demo = { tenant: 'acme', agent: 'demo' };

beforeAll(async () => {
  stack = await startLocalStack({ dynamoEndpoint: inject('dynamoEndpoint') });
  bob = await clientFor(stack.url, 'bob@acme.test');
});
afterAll(() => stack?.stop());

describe('when things break', () => {
  it('fails the run with a clear error and frees the lease when the agent process dies mid-run', async () => {
    const first = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'hello' });
    const session = first.body.claude_session_id;
    const started = await bob.call('POST', '/api/agents/demo/task', {
      message: 'sleep: 30',
      resume_session_id: session,
    });
    await bob.call('GET', `${started.body.events_url}?format=json&wait=10`);
    process.kill(stack.platform.fleet.processId(demo)!, 'SIGKILL');
    await stack.platform.drain();
    const after = await bob.call('GET', `/api/executions/${started.body.execution_id}`);
    expect(after.body.status).toBe('failed');
    expect(after.body.error.code).toBe('agent_unreachable');
    expect((await bob.call('GET', '/api/agents/demo')).body.status).toBe('failed');
    // Like a stopped ECS task, the dead agent takes its CLI run with it.
    await expect.poll(() => processesMentioning(session), { timeout: 10_000 }).toEqual([]);
    // The lease is free: once the agent is back, the same session takes a new turn.
    await stack.platform.fleet.start(demo);
    const again = await bob.call('POST', '/api/agents/demo/task?wait=25', {
      message: 'recap',
      resume_session_id: session,
    });
    expect(again.status).toBe(200);
    expect(again.body.response).toContain('hello');
  });

  it('accepts a task while the agent is stopped and wakes it (no more 409 agent_not_running)', async () => {
    expect((await bob.call('POST', '/api/agents/demo/stop')).body.status).toBe('stopped');
    const res = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'hi' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect((await bob.call('GET', '/api/agents/demo')).body.status).toBe('running');
  });

  it('answers 410 session_expired when the transcript is gone from disk and archive', async () => {
    const first = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'hello' });
    const { rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    await rm(join(stack.dataDir, 'archive'), { recursive: true, force: true });
    await rm(join(stack.dataDir, 'agents', 'acme', 'demo', '.claude', 'projects'), {
      recursive: true,
      force: true,
    });
    const res = await bob.call('POST', '/api/agents/demo/task', {
      message: 'hi',
      resume_session_id: first.body.claude_session_id,
    });
    expect(res.status).toBe(410);
    expect(res.body.error.code).toBe('session_expired');
  });

  it('sweeps a run stuck in running past its timeout to failed/lost and frees its lease', async () => {
    const first = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'hello' });
    const core = stack.platform.core;
    const stuck = await core.stores.executions.getExecution('acme', first.body.id);
    const id = ulid();
    await core.stores.executions.createExecution({
      ...stuck!,
      id,
      status: 'running',
      started_at: new Date(Date.now() - 3_600_000).toISOString(),
      lease_session_id: first.body.claude_session_id,
    });
    await core.stores.leases.acquireLease(
      'acme',
      'demo',
      first.body.claude_session_id,
      id,
      60_000,
      Date.now(),
    );
    expect(await sweepStaleRuns(core)).toBe(1);
    const swept = await bob.call('GET', `/api/executions/${id}`);
    expect(swept.body).toMatchObject({ status: 'failed', error: { code: 'lost' } });
    const events = await bob.call('GET', `/api/executions/${id}/events?format=json`);
    expect(events.body.done).toBe(true);
    expect(
      await core.stores.leases.acquireLease(
        'acme',
        'demo',
        first.body.claude_session_id,
        'probe',
        1000,
        Date.now(),
      ),
    ).toBe(true);
  });
});
