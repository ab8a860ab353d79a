import { readFileSync } from 'node:fs';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONCURRENCY } from '../../infra/aws/src/api-functions';
import { resourcesOfType, type SynthesizedReprise, synthReprise } from './synth-reprise';

let reprise: SynthesizedReprise;
let api: Template;

beforeAll(() => {
  reprise = synthReprise();
  api = reprise.template(reprise.stacks.api);
}, 120_000);

const functionId = (name: string): string => {
  const found = resourcesOfType(api, 'AWS::Lambda::Function').find(
    ([, p]) => p.FunctionName === `reprise-test-${name}`,
  );
  if (!found) throw new Error(`no function ${name}`);
  return found[0];
};
const props = (name: string) => api.toJSON().Resources[functionId(name)].Properties;

describe('runner failures and concurrency', () => {
  it('gives the runner an on-failure destination (an SQS queue) and retries', () => {
    const configs = resourcesOfType(api, 'AWS::Lambda::EventInvokeConfig');
    const runner = configs.find(([, p]) => JSON.stringify(p.FunctionName).includes(functionId('runner')));
    expect(runner).toBeDefined();
    const config = runner![1] as {
      MaximumRetryAttempts: number;
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [string, string] } } };
    };
    expect(config.MaximumRetryAttempts).toBe(2);
    const [queueId] = config.DestinationConfig.OnFailure.Destination['Fn::GetAtt'];
    const queue = api.toJSON().Resources[queueId];
    expect(queue.Type).toBe('AWS::SQS::Queue');
    expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
  });

  it('alarms on a failed invoke and ends its run from the queue', () => {
    const queueId = resourcesOfType(api, 'AWS::SQS::Queue').find(([, p]) =>
      String(p.QueueName).endsWith('runner-failures'),
    )![0];
    const alarms = resourcesOfType(api, 'AWS::CloudWatch::Alarm').filter(([, p]) =>
      JSON.stringify(p.Dimensions).includes(queueId),
    );
    expect(alarms).toHaveLength(1);
    expect(alarms[0]![1]).toMatchObject({ Threshold: 1, MetricName: 'NumberOfMessagesSent' });
    const mappings = resourcesOfType(api, 'AWS::Lambda::EventSourceMapping');
    expect(
      mappings.some(
        ([, p]) =>
          JSON.stringify(p.EventSourceArn).includes(queueId) &&
          JSON.stringify(p.FunctionName).includes(functionId('dead-letter')),
      ),
    ).toBe(true);
  });

  it('bounds the runner and fleet concurrency, and the API keeps the unreserved pool', () => {
    expect(props('runner').ReservedConcurrentExecutions).toBe(CONCURRENCY.runner);
    expect(props('fleet').ReservedConcurrentExecutions).toBe(CONCURRENCY.fleet);
    expect(props('api').ReservedConcurrentExecutions).toBeUndefined();
  });
});

describe('cdk.json', () => {
  const recommended = JSON.parse(
    readFileSync(
      new URL('../../node_modules/aws-cdk-lib/recommended-feature-flags.json', import.meta.url),
      'utf8',
    ),
  ) as Record<string, unknown>;
  const context = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context;

  it('sets every feature flag cdk init recommends for this aws-cdk-lib', () => {
    // One deliberate exception, explained in infra/aws/README.md: the stacks keep strong references.
    const { '@aws-cdk/core:defaultCrossStackReferences': crossStack, ...rest } = recommended;
    expect(crossStack).toBeDefined();
    for (const [flag, value] of Object.entries(rest))
      expect({ flag, value: context[flag] }).toEqual({ flag, value });
    expect(context['@aws-cdk/core:defaultCrossStackReferences']).toBe('strong');
  });

  it('restricts the agents VPC default security group (a flag in effect)', () => {
    const agents = reprise.template(reprise.stacks.agents);
    expect(Object.keys(agents.findResources('Custom::VpcRestrictDefaultSG'))).toHaveLength(1);
  });
});
