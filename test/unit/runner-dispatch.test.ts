import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { DispatchJob } from '@reprise/functions/core/ports';
import { lambdaDispatcher, wireJob } from '@reprise/functions/runner/dispatchers';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';

const lambda = mockClient(LambdaClient);

/** A job as the in-process dispatcher builds it, with every field only this process may use. */
const job = {
  tenant: 'acme',
  execution_id: 'E1',
  execution: { id: 'E1' },
  agent: { name: 'demo' },
  claimed: true,
  runner_claimed: true,
  agent_message: 'token sk-live-1',
} as unknown as DispatchJob;

describe('runner jobs over the wire', () => {
  beforeEach(() => lambda.reset());

  it('sends only the wire fields: no record, no agent item, no in-process hand-over', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 202 });
    await lambdaDispatcher(new LambdaClient({ region: 'us-east-1' }), 'runner').dispatch(job);
    const sent = lambda.commandCalls(InvokeCommand)[0]!.args[0].input;
    expect(sent).toMatchObject({ FunctionName: 'runner', InvocationType: 'Event' });
    expect(JSON.parse(new TextDecoder().decode(sent.Payload as Uint8Array))).toEqual({
      tenant: 'acme',
      execution_id: 'E1',
      claimed: true,
      agent_message: 'token sk-live-1',
    });
  });

  it('reads an incoming event the same way, so a forged hand-over flag cannot skip the runner claim', () => {
    expect(wireJob(job)).not.toHaveProperty('runner_claimed');
    expect(wireJob({ tenant: 'acme', execution_id: '', agent_queue: 'demo' })).toEqual({
      tenant: 'acme',
      execution_id: '',
      agent_queue: 'demo',
      wake: false,
    });
  });
});
