import {
  DeregisterTaskDefinitionCommand,
  DescribeTaskDefinitionCommand,
  DescribeTasksCommand,
  ListTaskDefinitionsCommand,
  ListTasksCommand,
  StopTaskCommand,
  type TaskStopCode,
} from '@aws-sdk/client-ecs';
import { DeleteAccessPointCommand } from '@aws-sdk/client-efs';
import { DeleteRoleCommand, DeleteRolePolicyCommand } from '@aws-sdk/client-iam';
import { DeleteSecretCommand, GetSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { readEcsFleetConfig } from '@reprise/functions/fleet/ecs';
import { afterEach, describe, expect, it } from 'vitest';
import { CLUSTER, FAMILY, ref, STARTED_BY, setup, TASK_ARN, task } from './ecs-fleet-fixtures';

let env: ReturnType<typeof setup>;
afterEach(() => env?.reset());

function withTasks(
  e: ReturnType<typeof setup>,
  live: ReturnType<typeof task>[],
  stopped: ReturnType<typeof task>[] = [],
) {
  e.ecs
    .on(ListTasksCommand, { desiredStatus: 'RUNNING' })
    .resolves({ taskArns: live.map((t) => t.taskArn!) });
  e.ecs
    .on(ListTasksCommand, { desiredStatus: 'STOPPED' })
    .resolves({ taskArns: stopped.map((t) => t.taskArn!) });
  e.ecs.on(DescribeTasksCommand).callsFake(({ tasks }: { tasks: string[] }) => ({
    tasks: [...live, ...stopped].filter((t) => tasks.includes(t.taskArn!)),
  }));
}

describe('EcsAgentFleet.status', () => {
  it.each([
    ['PROVISIONING', 'starting'],
    ['PENDING', 'starting'],
    ['ACTIVATING', 'starting'],
    ['RUNNING', 'running'],
  ])('maps a live task in %s to %s', async (lastStatus, expected) => {
    env = setup();
    withTasks(env, [task({ lastStatus })]);
    await expect(env.fleet.status(ref)).resolves.toBe(expected);
    expect(env.ecs.commandCalls(ListTasksCommand)[0]!.args[0].input).toEqual({
      cluster: CLUSTER,
      startedBy: STARTED_BY,
      desiredStatus: 'RUNNING',
    });
  });

  it.each<[TaskStopCode, string]>([
    ['UserInitiated', 'stopped'],
    ['TaskFailedToStart', 'failed'],
    ['EssentialContainerExited', 'failed'],
  ])('maps the last stopped task with stop code %s to %s', async (stopCode, expected) => {
    env = setup();
    withTasks(env, [], [task({ taskArn: `${TASK_ARN}-old`, lastStatus: 'STOPPED', stopCode })]);
    await expect(env.fleet.status(ref)).resolves.toBe(expected);
  });

  it('is stopped when ECS knows no task for the agent', async () => {
    env = setup();
    withTasks(env, []);
    await expect(env.fleet.status(ref)).resolves.toBe('stopped');
    expect(env.ecs.commandCalls(DescribeTasksCommand)).toHaveLength(0);
  });
});

describe('EcsAgentFleet.endpoint and stop', () => {
  it('returns the private IP on the agent port and the token, reading the secret once', async () => {
    env = setup();
    withTasks(env, [task({ lastStatus: 'RUNNING' })]);
    env.secrets.on(GetSecretValueCommand).resolves({ SecretString: 'secret-token' });
    const expected = { url: 'http://10.0.1.23:8080', token: 'secret-token' };
    await expect(env.fleet.endpoint(ref)).resolves.toEqual(expected);
    await expect(env.fleet.endpoint(ref)).resolves.toEqual(expected);
    expect(env.secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(env.secrets.commandCalls(GetSecretValueCommand)[0]!.args[0].input).toEqual({
      SecretId: 'reprise/test/acme/demo/token',
    });
  });

  it('returns null while the agent is still starting', async () => {
    env = setup();
    withTasks(env, [task({ lastStatus: 'PENDING' })]);
    await expect(env.fleet.endpoint(ref)).resolves.toBeNull();
  });

  it('stops every live task with a reason (ECS then gives SIGTERM and the stop timeout)', async () => {
    env = setup();
    withTasks(env, [task({ lastStatus: 'RUNNING' })]);
    env.ecs.on(StopTaskCommand).resolves({});
    await expect(env.fleet.stop(ref)).resolves.toBe('stopped');
    expect(env.ecs.commandCalls(StopTaskCommand).map((c) => c.args[0].input)).toEqual([
      { cluster: CLUSTER, task: TASK_ARN, reason: 'Stopped by Reprise' },
    ]);
  });
});

describe('EcsAgentFleet.destroy', () => {
  it('stops the agent and removes only its own task definitions, access point, role and token', async () => {
    env = setup();
    withTasks(env, []);
    env.ecs.on(DescribeTaskDefinitionCommand).resolves({
      taskDefinition: {
        volumes: [
          {
            name: 'home',
            efsVolumeConfiguration: {
              fileSystemId: 'fs-123',
              authorizationConfig: { accessPointId: 'fsap-1' },
            },
          },
        ],
      },
    });
    const arn = (family: string, rev: number) =>
      `arn:aws:ecs:us-east-1:123456789012:task-definition/${family}:${rev}`;
    env.ecs.on(ListTaskDefinitionsCommand).resolves({
      taskDefinitionArns: [arn(FAMILY, 1), arn(FAMILY, 2), arn(`${FAMILY}2`, 1)],
    });
    await env.fleet.destroy(ref);
    expect(
      env.ecs.commandCalls(DeregisterTaskDefinitionCommand).map((c) => c.args[0].input.taskDefinition),
    ).toEqual([arn(FAMILY, 1), arn(FAMILY, 2)]);
    expect(env.efs.commandCalls(DeleteAccessPointCommand)[0]!.args[0].input).toEqual({
      AccessPointId: 'fsap-1',
    });
    expect(env.iam.commandCalls(DeleteRolePolicyCommand)).toHaveLength(1);
    expect(env.iam.commandCalls(DeleteRoleCommand)[0]!.args[0].input.RoleName).toMatch(
      /^reprise-test-agent-[0-9a-f]{24}$/,
    );
    expect(env.secrets.commandCalls(DeleteSecretCommand)[0]!.args[0].input).toEqual({
      SecretId: 'reprise/test/acme/demo/token',
      ForceDeleteWithoutRecovery: true,
    });
  });
});

describe('readEcsFleetConfig', () => {
  const env0 = {
    AWS_REGION: 'us-east-1',
    STAGE: 'prod',
    AGENT_CLUSTER_ARN: CLUSTER,
    AGENT_SUBNET_IDS: 'subnet-a, subnet-b',
    AGENT_SECURITY_GROUP_ID: 'sg-1',
    EFS_FILE_SYSTEM_ID: 'fs-1',
    ARCHIVE_BUCKET: 'bucket',
    AGENT_IMAGE_URI: 'image',
    AGENT_EXECUTION_ROLE_ARN: 'exec',
    AGENT_ROLE_BOUNDARY_ARN: 'boundary',
    AGENT_ROLE_PATH: '/reprise/prod/agents/',
    AGENT_LOG_GROUP: '/reprise/prod/agents',
  };

  it('reads the variables the CDK api stack sets', () => {
    const config = readEcsFleetConfig(env0);
    expect(config.subnetIds).toEqual(['subnet-a', 'subnet-b']);
    expect(config.stage).toBe('prod');
    expect(config.anthropicSecretArn).toBeUndefined();
  });

  it('names the missing variable', () => {
    const { EFS_FILE_SYSTEM_ID: _, ...rest } = env0;
    expect(() => readEcsFleetConfig(rest)).toThrow('EFS_FILE_SYSTEM_ID');
  });
});
