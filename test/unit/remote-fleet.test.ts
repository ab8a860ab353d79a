import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { AgentFleet } from '@reprise/functions/fleet/agent-fleet';
import { RemoteAgentFleet, serveFleetRequest } from '@reprise/functions/fleet/remote';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';

const lambda = mockClient(LambdaClient);
const ref = { tenant: 'acme', agent: 'demo' };
const encode = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

/** A fleet that records calls, standing in for the ECS fleet behind the fleet function. */
function recordingFleet(calls: string[]): AgentFleet {
  const record = (op: string) => async () => {
    calls.push(op);
    return op === 'endpoint'
      ? { url: 'http://10.0.0.5:8080', token: 't' }
      : op === 'create' || op === 'destroy'
        ? undefined
        : 'running';
  };
  return {
    create: record('create'),
    destroy: record('destroy'),
    start: record('start'),
    stop: record('stop'),
    status: record('status'),
    endpoint: record('endpoint'),
    close: async () => {},
  } as AgentFleet;
}

beforeEach(() => lambda.reset());

describe('the remote fleet', () => {
  it('invokes the fleet function synchronously with the operation and agent', async () => {
    lambda.on(InvokeCommand).resolves({ Payload: encode({ ok: true, value: 'running' }) as never });
    const fleet = new RemoteAgentFleet(new LambdaClient({ region: 'us-east-1' }), 'reprise-dev-fleet');
    expect(await fleet.status(ref)).toBe('running');
    const input = lambda.commandCalls(InvokeCommand)[0]!.args[0].input;
    expect(input.FunctionName).toBe('reprise-dev-fleet');
    expect(input.InvocationType).toBeUndefined();
    expect(JSON.parse(new TextDecoder().decode(input.Payload as Uint8Array))).toEqual({ op: 'status', ref });
  });

  it('hands a start over with a quick launch call and reports starting (nothing waits for Fargate)', async () => {
    lambda.on(InvokeCommand).resolves({ Payload: encode({ ok: true, value: 'starting' }) as never });
    const fleet = new RemoteAgentFleet(new LambdaClient({ region: 'us-east-1' }), 'f');
    expect(await fleet.start(ref)).toBe('starting');
    const input = lambda.commandCalls(InvokeCommand)[0]!.args[0].input;
    expect(input.InvocationType).toBeUndefined();
    expect(JSON.parse(new TextDecoder().decode(input.Payload as Uint8Array))).toEqual({ op: 'launch', ref });
  });

  it('reads the endpoint from the agent item: no fleet call for a stopped agent, one token fetch per instance', async () => {
    lambda.on(InvokeCommand).resolves({ Payload: encode({ ok: true, value: 'secret-token' }) as never });
    const fleet = new RemoteAgentFleet(new LambdaClient({ region: 'us-east-1' }), 'f');
    expect(await fleet.endpoint(ref, { task: null })).toBeNull();
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(0);
    const task = {
      task_arn: 'arn:aws:ecs:us-east-1:1:task/c/1',
      endpoint_url: 'http://10.0.0.9:8080',
      token_ref: 'reprise/dev/acme/demo/token',
    };
    for (let i = 0; i < 3; i++) {
      expect(await fleet.endpoint(ref, { task })).toEqual({
        url: 'http://10.0.0.9:8080',
        token: 'secret-token',
      });
    }
    const calls = lambda.commandCalls(InvokeCommand);
    expect(calls).toHaveLength(1);
    expect(JSON.parse(new TextDecoder().decode(calls[0]!.args[0].input.Payload as Uint8Array))).toEqual({
      op: 'token',
      ref,
    });
  });

  it('surfaces a failed operation as an error', async () => {
    lambda.on(InvokeCommand).resolves({ Payload: encode({ ok: false, error: 'no capacity' }) as never });
    const fleet = new RemoteAgentFleet(new LambdaClient({ region: 'us-east-1' }), 'f');
    await expect(fleet.stop(ref)).rejects.toThrow('fleet stop failed: no capacity');
  });

  it('serves each operation on the real fleet and reports errors as data', async () => {
    const calls: string[] = [];
    const fleet = recordingFleet(calls);
    expect(await serveFleetRequest(fleet, { op: 'endpoint', ref })).toEqual({
      ok: true,
      value: { url: 'http://10.0.0.5:8080', token: 't' },
    });
    expect(await serveFleetRequest(fleet, { op: 'create', ref })).toEqual({ ok: true, value: null });
    expect(await serveFleetRequest(fleet, { op: 'format-disk', ref })).toEqual({
      ok: false,
      error: 'invalid fleet request',
    });
    expect(calls).toEqual(['endpoint', 'create']);
    const failing = { ...fleet, start: async () => Promise.reject(new Error('capacity')) } as AgentFleet;
    expect(await serveFleetRequest(failing, { op: 'start', ref })).toEqual({ ok: false, error: 'capacity' });
    const options: unknown[] = [];
    const launching = {
      ...fleet,
      start: async (_: unknown, o: unknown) => {
        options.push(o);
        return 'running';
      },
    } as AgentFleet;
    expect(await serveFleetRequest(launching, { op: 'launch', ref })).toEqual({
      ok: true,
      value: 'starting',
    });
    expect(options).toEqual([{ wait: false }]);
  });
});
