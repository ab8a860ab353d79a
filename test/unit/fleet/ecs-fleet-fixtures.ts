import { ECSClient, type Task } from '@aws-sdk/client-ecs';
import { EFSClient } from '@aws-sdk/client-efs';
import { IAMClient } from '@aws-sdk/client-iam';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { EcsAgentFleet, type EcsFleetConfig } from '@reprise/functions/fleet/ecs';
import { mockClient } from 'aws-sdk-client-mock';

export const CLUSTER = 'arn:aws:ecs:us-east-1:123456789012:cluster/reprise-test-agents';
export const ref = { tenant: 'acme', agent: 'demo' };
export const STARTED_BY = 'reprise/test/acme/demo';
export const FAMILY = 'reprise_test_acme_demo';
export const TASK_ARN = 'arn:aws:ecs:us-east-1:123456789012:task/reprise-test-agents/abc123';

export const config: EcsFleetConfig = {
  stage: 'test',
  region: 'us-east-1',
  clusterArn: CLUSTER,
  subnetIds: ['subnet-a', 'subnet-b'],
  securityGroupId: 'sg-agents',
  fileSystemId: 'fs-123',
  archiveBucket: 'reprise-archive',
  imageUri: '123456789012.dkr.ecr.us-east-1.amazonaws.com/agent:1',
  executionRoleArn: 'arn:aws:iam::123456789012:role/reprise-test-agent-execution',
  roleBoundaryArn: 'arn:aws:iam::123456789012:policy/reprise-test-agent-boundary',
  rolePath: '/reprise/test/agents/',
  logGroup: '/reprise/test/agents',
  anthropicSecretArn:
    'arn:aws:secretsmanager:us-east-1:123456789012:secret:reprise/test/platform/anthropic-api-key-AbCdEf',
  cpu: '1024',
  memory: '2048',
  startTimeoutMs: 60_000,
  pollIntervalMs: 1_000,
};

export const task = (overrides: Partial<Task>): Task => ({
  taskArn: TASK_ARN,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  attachments: [
    {
      type: 'ElasticNetworkInterface',
      details: [
        { name: 'subnetId', value: 'subnet-a' },
        { name: 'privateIPv4Address', value: '10.0.1.23' },
      ],
    },
  ],
  ...overrides,
});

/** Mocked clients, a virtual clock that sleep() advances, and a scripted /health. */
export function setup(healthStatuses: number[] = [200]) {
  const ecs = mockClient(ECSClient);
  const efs = mockClient(EFSClient);
  const iam = mockClient(IAMClient);
  const secrets = mockClient(SecretsManagerClient);
  let clock = 0;
  const sleeps: number[] = [];
  const healthCalls: string[] = [];
  const fetch = (async (url: string | URL | Request) => {
    healthCalls.push(String(url));
    const status = healthStatuses.length > 1 ? healthStatuses.shift()! : healthStatuses[0]!;
    if (status === 0) throw new TypeError('fetch failed: ECONNREFUSED');
    return new Response(status === 200 ? '{"status":"ok"}' : 'starting', { status });
  }) as typeof globalThis.fetch;
  const fleet = new EcsAgentFleet(
    {
      ecs: new ECSClient({ region: 'us-east-1' }),
      efs: new EFSClient({ region: 'us-east-1' }),
      iam: new IAMClient({ region: 'us-east-1' }),
      secrets: new SecretsManagerClient({ region: 'us-east-1' }),
      fetch,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
      now: () => clock,
      newToken: () => 'token-from-test',
    },
    config,
  );
  const reset = () => {
    for (const mock of [ecs, efs, iam, secrets]) mock.restore();
  };
  return { ecs, efs, iam, secrets, fleet, sleeps, healthCalls, reset };
}
