import {
  DescribeTasksCommand,
  ListTasksCommand,
  RegisterTaskDefinitionCommand,
  RunTaskCommand,
  StopTaskCommand,
} from '@aws-sdk/client-ecs';
import { CreateAccessPointCommand } from '@aws-sdk/client-efs';
import {
  CreateRoleCommand,
  EntityAlreadyExistsException,
  GetRoleCommand,
  PutRolePolicyCommand,
} from '@aws-sdk/client-iam';
import { CreateSecretCommand, ResourceExistsException } from '@aws-sdk/client-secrets-manager';
import { AgentStartError } from '@reprise/functions/fleet/ecs';
import { afterEach, describe, expect, it } from 'vitest';
import { CLUSTER, config, FAMILY, ref, STARTED_BY, setup, TASK_ARN, task } from './ecs-fleet-fixtures';

let env: ReturnType<typeof setup>;
afterEach(() => env?.reset());

const AP_ARN = 'arn:aws:elasticfilesystem:us-east-1:123456789012:access-point/fsap-1';
const ROLE_ARN = 'arn:aws:iam::123456789012:role/reprise/test/agents/reprise-test-agent-x';

function mockProvisioning(e: ReturnType<typeof setup>) {
  e.efs.on(CreateAccessPointCommand).resolves({ AccessPointId: 'fsap-1', AccessPointArn: AP_ARN });
  e.iam.on(CreateRoleCommand).resolves({ Role: { Arn: ROLE_ARN } as never });
  e.iam.on(PutRolePolicyCommand).resolves({});
  e.secrets.on(CreateSecretCommand).resolves({ ARN: 'arn:secret' });
  e.ecs.on(RegisterTaskDefinitionCommand).resolves({});
}

describe('EcsAgentFleet.create', () => {
  it('makes an access point confined to the agent home, owned by uid/gid 1000', async () => {
    env = setup();
    mockProvisioning(env);
    await env.fleet.create(ref);
    const input = env.efs.commandCalls(CreateAccessPointCommand)[0]!.args[0].input;
    expect(input).toMatchObject({
      FileSystemId: 'fs-123',
      PosixUser: { Uid: 1000, Gid: 1000 },
      RootDirectory: {
        Path: '/tenants/acme/agents/demo',
        CreationInfo: { OwnerUid: 1000, OwnerGid: 1000, Permissions: '0750' },
      },
    });
    expect(input.ClientToken).toHaveLength(64);
    expect(input.Tags).toEqual(
      expect.arrayContaining([
        { Key: 'reprise:tenant', Value: 'acme' },
        { Key: 'reprise:agent', Value: 'demo' },
      ]),
    );
  });

  it('creates a bounded per-agent role that may mount only its own access point', async () => {
    env = setup();
    mockProvisioning(env);
    await env.fleet.create(ref);
    const role = env.iam.commandCalls(CreateRoleCommand)[0]!.args[0].input;
    expect(role.Path).toBe('/reprise/test/agents/');
    expect(role.PermissionsBoundary).toBe(config.roleBoundaryArn);
    expect(role.RoleName!.length).toBeLessThanOrEqual(64);
    const trust = JSON.parse(role.AssumeRolePolicyDocument!);
    expect(trust.Statement[0].Principal).toEqual({ Service: 'ecs-tasks.amazonaws.com' });
    expect(trust.Statement[0].Condition.StringEquals).toEqual({ 'aws:SourceAccount': '123456789012' });

    const policy = JSON.parse(env.iam.commandCalls(PutRolePolicyCommand)[0]!.args[0].input.PolicyDocument!);
    const mount = policy.Statement.find((s: { Sid: string }) => s.Sid === 'MountOwnHome');
    expect(mount.Resource).toBe('arn:aws:elasticfilesystem:us-east-1:123456789012:file-system/fs-123');
    expect(mount.Condition).toEqual({ StringEquals: { 'elasticfilesystem:AccessPointArn': AP_ARN } });
    const archive = policy.Statement.find((s: { Sid: string }) => s.Sid === 'ArchiveOwnTranscripts');
    expect(archive.Resource).toBe('arn:aws:s3:::reprise-archive/tenants/acme/agents/demo/*');
  });

  it('stores a fresh token and registers a task definition mounting the home over TLS with IAM', async () => {
    env = setup();
    mockProvisioning(env);
    await env.fleet.create(ref);
    expect(env.secrets.commandCalls(CreateSecretCommand)[0]!.args[0].input).toMatchObject({
      Name: 'reprise/test/acme/demo/token',
      SecretString: 'token-from-test',
    });
    const def = env.ecs.commandCalls(RegisterTaskDefinitionCommand)[0]!.args[0].input;
    expect(def).toMatchObject({
      family: FAMILY,
      taskRoleArn: ROLE_ARN,
      executionRoleArn: config.executionRoleArn,
      networkMode: 'awsvpc',
      requiresCompatibilities: ['FARGATE'],
      volumes: [
        {
          name: 'home',
          efsVolumeConfiguration: {
            fileSystemId: 'fs-123',
            transitEncryption: 'ENABLED',
            authorizationConfig: { accessPointId: 'fsap-1', iam: 'ENABLED' },
          },
        },
      ],
    });
    const container = def.containerDefinitions![0]!;
    expect(container.mountPoints).toEqual([
      { sourceVolume: 'home', containerPath: '/home/agent', readOnly: false },
    ]);
    expect(container.portMappings).toEqual([{ containerPort: 8080, protocol: 'tcp' }]);
    expect(container.secrets).toEqual([
      { name: 'AGENT_TOKEN', valueFrom: 'reprise/test/acme/demo/token' },
      { name: 'ANTHROPIC_API_KEY', valueFrom: config.anthropicSecretArn },
    ]);
    expect(container.environment).toEqual(
      expect.arrayContaining([
        { name: 'AGENT_HOME', value: '/home/agent' },
        { name: 'ARCHIVE_PREFIX', value: 'tenants/acme/agents/demo/' },
      ]),
    );
    // Long enough for a cut-off turn to flush and archive its transcript (Fargate's maximum).
    expect(container.stopTimeout).toBe(120);
    expect(container.logConfiguration?.options?.['awslogs-group']).toBe('/reprise/test/agents');
  });

  it('is repeatable: an existing role and token are reused, not replaced', async () => {
    env = setup();
    mockProvisioning(env);
    env.iam
      .on(CreateRoleCommand)
      .rejects(new EntityAlreadyExistsException({ message: 'exists', $metadata: {} }));
    env.iam.on(GetRoleCommand).resolves({ Role: { Arn: ROLE_ARN } as never });
    env.secrets
      .on(CreateSecretCommand)
      .rejects(new ResourceExistsException({ message: 'exists', $metadata: {} }));
    await env.fleet.create(ref);
    expect(env.ecs.commandCalls(RegisterTaskDefinitionCommand)[0]!.args[0].input.taskRoleArn).toBe(ROLE_ARN);
  });

  it('refuses a tenant id that cannot name AWS resources', async () => {
    env = setup();
    await expect(env.fleet.create({ tenant: 'Acme Corp', agent: 'demo' })).rejects.toThrow(/Tenant id/);
    expect(env.efs.commandCalls(CreateAccessPointCommand)).toHaveLength(0);
  });
});

describe('EcsAgentFleet.start', () => {
  it('runs a private Fargate task and resolves once it is RUNNING and /health answers', async () => {
    env = setup([0, 503, 200]);
    env.ecs.on(ListTasksCommand).resolves({ taskArns: [] });
    env.ecs.on(RunTaskCommand).resolves({ tasks: [task({ lastStatus: 'PROVISIONING' })], failures: [] });
    env.ecs
      .on(DescribeTasksCommand)
      .resolvesOnce({ tasks: [task({ lastStatus: 'PENDING' })] })
      .resolves({ tasks: [task({ lastStatus: 'RUNNING' })] });

    await expect(env.fleet.start(ref)).resolves.toBe('running');

    expect(env.ecs.commandCalls(RunTaskCommand)[0]!.args[0].input).toMatchObject({
      cluster: CLUSTER,
      taskDefinition: FAMILY,
      launchType: 'FARGATE',
      startedBy: STARTED_BY,
      networkConfiguration: {
        awsvpcConfiguration: {
          subnets: ['subnet-a', 'subnet-b'],
          securityGroups: ['sg-agents'],
          assignPublicIp: 'DISABLED',
        },
      },
      tags: expect.arrayContaining([{ key: 'reprise:tenant', value: 'acme' }]),
    });
    expect(env.ecs.commandCalls(DescribeTasksCommand)[0]!.args[0].input).toEqual({
      cluster: CLUSTER,
      tasks: [TASK_ARN],
    });
    expect(env.healthCalls).toEqual(Array(3).fill('http://10.0.1.23:8080/health'));
    expect(env.sleeps.every((ms) => ms === config.pollIntervalMs)).toBe(true);
  });

  it('with wait: false, returns starting once ECS accepted the task, without polling', async () => {
    env = setup();
    env.ecs.on(ListTasksCommand).resolves({ taskArns: [] });
    env.ecs.on(RunTaskCommand).resolves({ tasks: [task({ lastStatus: 'PROVISIONING' })] });
    await expect(env.fleet.start(ref, { wait: false })).resolves.toBe('starting');
    expect(env.ecs.commandCalls(DescribeTasksCommand)).toHaveLength(0);
    expect(env.healthCalls).toHaveLength(0);
  });

  it('waits for an agent that is already starting instead of launching a second task', async () => {
    env = setup();
    env.ecs.on(ListTasksCommand).resolves({ taskArns: [TASK_ARN] });
    env.ecs.on(DescribeTasksCommand).resolves({ tasks: [task({ lastStatus: 'RUNNING' })] });
    await expect(env.fleet.start(ref)).resolves.toBe('running');
    expect(env.ecs.commandCalls(RunTaskCommand)).toHaveLength(0);
  });

  it('rejects with the placement reason when RunTask reports failures (no capacity)', async () => {
    env = setup();
    env.ecs.on(ListTasksCommand).resolves({ taskArns: [] });
    env.ecs
      .on(RunTaskCommand)
      .resolves({ tasks: [], failures: [{ reason: 'Capacity is unavailable at this time', arn: CLUSTER }] });
    const error = await env.fleet.start(ref).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentStartError);
    expect((error as AgentStartError).failure).toBe('placement');
    expect((error as Error).message).toMatch(/Capacity is unavailable/);
  });

  it('rejects with a clear error when the task stops while starting', async () => {
    env = setup();
    env.ecs.on(ListTasksCommand).resolves({ taskArns: [] });
    env.ecs.on(RunTaskCommand).resolves({ tasks: [task({ lastStatus: 'PROVISIONING' })] });
    env.ecs.on(DescribeTasksCommand).resolves({
      tasks: [
        task({
          lastStatus: 'STOPPED',
          stopCode: 'TaskFailedToStart',
          stoppedReason: 'CannotPullContainerError: image not found',
        }),
      ],
    });
    await expect(env.fleet.start(ref)).rejects.toThrow(
      'Agent task stopped while starting: CannotPullContainerError: image not found (TaskFailedToStart)',
    );
  });

  it('times out, and stops the task, when /health never answers', async () => {
    env = setup([503]);
    env.ecs.on(ListTasksCommand).resolves({ taskArns: [] });
    env.ecs.on(RunTaskCommand).resolves({ tasks: [task({ lastStatus: 'RUNNING' })] });
    env.ecs.on(StopTaskCommand).resolves({});
    const error = await env.fleet.start(ref).catch((e: unknown) => e);
    expect((error as AgentStartError).failure).toBe('unhealthy');
    expect((error as Error).message).toBe('Agent server did not answer /health within 60 s');
    expect(env.healthCalls.length).toBe(config.startTimeoutMs / config.pollIntervalMs + 1);
    expect(env.ecs.commandCalls(StopTaskCommand)[0]!.args[0].input).toMatchObject({
      cluster: CLUSTER,
      task: TASK_ARN,
    });
  });

  it('times out when the task never leaves PENDING', async () => {
    env = setup();
    env.ecs.on(ListTasksCommand).resolves({ taskArns: [] });
    env.ecs.on(RunTaskCommand).resolves({ tasks: [task({ lastStatus: 'PENDING' })] });
    env.ecs.on(DescribeTasksCommand).resolves({ tasks: [task({ lastStatus: 'PENDING' })] });
    env.ecs.on(StopTaskCommand).resolves({});
    await expect(env.fleet.start(ref)).rejects.toThrow('did not reach RUNNING within 60 s');
    expect(env.healthCalls).toHaveLength(0);
    expect(env.ecs.commandCalls(StopTaskCommand)).toHaveLength(1);
  });
});
