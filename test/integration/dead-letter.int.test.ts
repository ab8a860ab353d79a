import { endDeadLetteredRun } from '@reprise/functions/runner/dead-letter';
import { runExecution } from '@reprise/functions/runner/run-execution';
import { describe, expect, it } from 'vitest';
import { type Client, stackPerFile, type TestStack } from '../helpers/local-stack';
import { processGroups } from '../helpers/process-tree';
import { processesMentioning, waitFor } from './agent-image/task-client';

let stack: TestStack;
let bob: Client;
stackPerFile((s, b) => {
  stack = s;
  bob = b;
});

/** The record Lambda sends to an on-failure destination after the last failed attempt. */
const failedInvoke = (executionId: string) =>
  JSON.stringify({
    version: '1.0',
    timestamp: new Date().toISOString(),
    requestContext: {
      requestId: 'r-1',
      functionArn: 'arn:aws:lambda:us-east-1:123456789012:function:reprise-test-runner:$LATEST',
      condition: 'RetriesExhausted',
      approximateInvokeCount: 3,
    },
    requestPayload: { tenant: 'acme', execution_id: executionId },
    responseContext: { statusCode: 200, executedVersion: '$LATEST', functionError: 'Unhandled' },
    responsePayload: { errorMessage: 'Task timed out after 900.00 seconds' },
  });

describe('the runner dead-letter consumer', () => {
  it('ends the run failed with Lambda’s reason, stops its turn on the agent and frees its session lease', async () => {
    const first = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'hello' });
    const session = first.body.claude_session_id;
    const turn = await bob.call('POST', '/api/agents/demo/task', {
      message: 'sleep: 30',
      resume_session_id: session,
    });
    await bob.call('GET', `${turn.body.events_url}?format=json&wait=10`);

    expect(await endDeadLetteredRun(stack.platform.core, failedInvoke(turn.body.execution_id))).toBe(true);
    const ended = await bob.call('GET', `/api/executions/${turn.body.execution_id}`);
    expect(ended.body).toMatchObject({ status: 'failed', error: { code: 'lost' } });
    expect(ended.body.error.message).toContain('RetriesExhausted after 3 attempts');
    // The CLI the dead runner left going is stopped: no two CLIs ever write one session.
    await waitFor(() => processesMentioning(session).length === 0, 15_000);
    // Lease freed: the next turn on the session is accepted, not 409 session_busy, and runs.
    const next = await bob.call('POST', '/api/agents/demo/task', {
      message: 'recap',
      resume_session_id: session,
    });
    expect(next.status).toBe(202);
    await stack.platform.drain();
    expect((await bob.call('GET', `/api/executions/${next.body.execution_id}`)).body.status).toBe('success');
    expect((await bob.call('GET', `/api/executions/${turn.body.execution_id}`)).body.error.code).toBe('lost');
  });

  it('leaves a finished run alone and drops what is not a failed invoke', async () => {
    const done = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'hello' });
    expect(await endDeadLetteredRun(stack.platform.core, failedInvoke(done.body.id))).toBe(false);
    expect((await bob.call('GET', `/api/executions/${done.body.id}`)).body.status).toBe('success');
    expect(await endDeadLetteredRun(stack.platform.core, '{"not":"an invoke"}')).toBe(false);
  });
});

describe('a retried runner invoke', () => {
  it('never plays a started turn a second time nor frees its lease or run slot', async () => {
    const first = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'hello' });
    const session = first.body.claude_session_id;
    const turn = await bob.call('POST', '/api/agents/demo/task', {
      message: 'sleep: 8',
      resume_session_id: session,
    });
    await bob.call('GET', `${turn.body.events_url}?format=json&wait=10`);
    // One CLI run is one process group (the agent spawns it detached), however many processes
    // bubblewrap and the CLI make of it while it starts.
    const runs = () => processGroups(processesMentioning(session).map((line) => Number.parseInt(line, 10)));
    await waitFor(() => runs().length > 0, 15_000);
    // What Lambda would deliver again after a crash or a duplicate delivery: ids only.
    await runExecution(stack.platform.core, { tenant: 'acme', execution_id: turn.body.execution_id });
    expect(runs()).toHaveLength(1);
    // The slot stays the first runner's: the retry gives back nothing it did not take.
    expect((await stack.platform.core.stores.agents.getAgent('acme', 'demo'))?.running_count).toBe(1);
    const busy = await bob.call('POST', '/api/agents/demo/task', {
      message: 'recap',
      resume_session_id: session,
    });
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('session_busy');
    await stack.platform.drain();
    expect((await bob.call('GET', `/api/executions/${turn.body.execution_id}`)).body.status).toBe('success');
  });
});
