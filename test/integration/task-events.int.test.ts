import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { CoreDeps } from '@reprise/functions/core/deps';
import { inProcessEventSignal } from '@reprise/functions/core/event-signals';
import type { DispatchJob } from '@reprise/functions/core/ports';
import { submitTask } from '@reprise/functions/core/tasks';
import { createStores } from '@reprise/functions/data/create-stores';
import { dirPayloadStore } from '@reprise/functions/data/payloads/dir';
import { AgentClient } from '@reprise/functions/fleet/agent-client';
import { RemoteAgentFleet } from '@reprise/functions/fleet/remote';
import { handleTaskStateChange } from '@reprise/functions/fleet/task-events';
import { silentLogger } from '@reprise/functions/lib/log';
import { runExecution } from '@reprise/functions/runner/run-execution';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bob, newAgent } from '../helpers/fixtures';
import { createTestDb, type TestDb } from '../helpers/test-db';

/** The AWS side of waking: real DynamoDB Local, the fleet function's Lambda invokes mocked. */
const lambda = mockClient(LambdaClient);
const ops: string[] = [];
let db: TestDb;
let deps: CoreDeps;
const jobs: DispatchJob[] = [];

beforeAll(async () => {
  db = await createTestDb();
  lambda.on(InvokeCommand).callsFake((input: { Payload: Uint8Array }) => {
    const { op } = JSON.parse(new TextDecoder().decode(input.Payload)) as { op: string };
    ops.push(op);
    const value = op === 'launch' ? 'starting' : op === 'token' ? 'agent-token' : null;
    return { Payload: new TextEncoder().encode(JSON.stringify({ ok: true, value })) };
  });
  deps = {
    stores: createStores(db, dirPayloadStore(mkdtempSync(join(tmpdir(), 'rp-task-events-')))),
    fleet: new RemoteAgentFleet(new LambdaClient({ region: 'us-east-1' }), 'reprise-dev-fleet'),
    agentClient: new AgentClient(),
    dispatcher: { dispatch: async (job) => void jobs.push(job) },
    signal: inProcessEventSignal(),
    clock: { now: () => Date.now() },
    logger: silentLogger,
  };
  for (const name of ['cloudy', 'doomed']) {
    await deps.stores.agents.createAgent(newAgent(bob, name));
  }
});
afterAll(async () => {
  lambda.restore();
  await db?.drop();
});

const options = {
  stage: 'dev',
  fetch: (async () => new Response('ok')) as typeof fetch,
  sleep: async () => {},
  now: Date.now,
  healthWaitMs: 0,
  pollIntervalMs: 0,
};
const taskEvent = (agent: string, lastStatus: string, extra: Record<string, unknown> = {}) => ({
  'detail-type': 'ECS Task State Change',
  source: 'aws.ecs',
  detail: {
    taskArn: `arn:aws:ecs:us-east-1:111122223333:task/reprise-dev-agents/${agent}`,
    lastStatus,
    desiredStatus: lastStatus === 'STOPPED' ? 'STOPPED' : 'RUNNING',
    startedBy: `reprise/dev/acme/${agent}`,
    attachments: [
      { type: 'ElasticNetworkInterface', details: [{ name: 'privateIPv4Address', value: '10.0.3.7' }] },
    ],
    ...extra,
  },
});

async function queueRuns(agent: string, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const { execution } = await submitTask(deps, bob, agent, { message: `task ${i}` });
    ids.push(execution.id);
  }
  // What the runner function does with each "queued" dispatch.
  for (const job of jobs.splice(0)) await runExecution(deps, job);
  return ids;
}

describe('waking an agent on ECS', () => {
  it('launches once without waiting for Fargate, then dispatches the queue on the Task State Change', async () => {
    const ids = await queueRuns('cloudy', 3);
    expect(ops).toEqual(['launch']);
    const starting = await deps.stores.agents.getAgent('acme', 'cloudy');
    expect(starting?.state).toBe('starting');
    for (const id of ids) {
      expect(await deps.stores.executions.getExecution('acme', id)).toMatchObject({
        status: 'queued',
        waiting_for: 'agent',
      });
    }
    expect(await handleTaskStateChange(deps, options, taskEvent('cloudy', 'RUNNING'))).toBe('running');
    const running = await deps.stores.agents.getAgent('acme', 'cloudy');
    expect(running).toMatchObject({
      state: 'running',
      task: {
        task_arn: 'arn:aws:ecs:us-east-1:111122223333:task/reprise-dev-agents/cloudy',
        endpoint_url: 'http://10.0.3.7:8080',
        token_ref: 'reprise/dev/acme/cloudy/token',
      },
    });
    // Three runs, four slots: all handed to the runner, in arrival order, already marked running.
    expect(jobs.map((j) => [j.execution_id, j.claimed])).toEqual(ids.map((id) => [id, true]));
    expect((await deps.stores.executions.getExecution('acme', ids[0]!))?.status).toBe('running');
    // The turn's endpoint comes from the agent item; only the token is fetched, once.
    expect(await deps.fleet.endpoint({ tenant: 'acme', agent: 'cloudy' }, running!)).toEqual({
      url: 'http://10.0.3.7:8080',
      token: 'agent-token',
    });
    await deps.fleet.endpoint({ tenant: 'acme', agent: 'cloudy' }, running!);
    expect(ops).toEqual(['launch', 'token']);
    jobs.splice(0);
  });

  it('ignores tasks of another stage and a repeated RUNNING event', async () => {
    expect(
      await handleTaskStateChange(deps, { ...options, stage: 'prod' }, taskEvent('cloudy', 'RUNNING')),
    ).toMatch(/^ignored/);
    expect(await handleTaskStateChange(deps, options, taskEvent('cloudy', 'RUNNING'))).toMatch(/^ignored/);
    expect(jobs).toEqual([]);
  });

  it('fails the waiting runs agent_start_failed when the task stops while starting', async () => {
    const ids = await queueRuns('doomed', 2);
    const stopped = taskEvent('doomed', 'STOPPED', {
      stopCode: 'TaskFailedToStart',
      stoppedReason: 'CannotPullContainerError: image not found',
    });
    expect(await handleTaskStateChange(deps, options, stopped)).toBe('start failed');
    for (const id of ids) {
      const e = await deps.stores.executions.getExecution('acme', id);
      expect(e?.status).toBe('failed');
      expect(e?.error?.code).toBe('agent_start_failed');
      expect(e?.error?.message).toContain('CannotPullContainerError');
    }
    expect(await deps.stores.agents.getAgent('acme', 'doomed')).toMatchObject({ state: 'failed' });
  });
});
