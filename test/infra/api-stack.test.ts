import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { resourcesOfType, type SynthesizedReprise, synthReprise } from './synth-reprise';

let reprise: SynthesizedReprise;
let api: Template;

beforeAll(() => {
  reprise = synthReprise();
  api = reprise.template(reprise.stacks.api);
}, 120_000);

type Fn = { FunctionName: string; Runtime: string; Architectures: string[]; Timeout: number; Role: unknown };
type Props = Fn & {
  Environment: { Variables: Record<string, unknown> };
  LoggingConfig: { LogFormat: string };
};

const fn = (name: string): [string, Props] => {
  const found = resourcesOfType(api, 'AWS::Lambda::Function').find(
    ([, p]) => p.FunctionName === `reprise-test-${name}`,
  );
  if (!found) throw new Error(`no function ${name}`);
  return found as [string, Props];
};

/** All actions the function's role may perform, from its inline (default) policy. */
const actionsOf = (name: string): string[] => {
  const roleId = (fn(name)[1].Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
  const policies = resourcesOfType(api, 'AWS::IAM::Policy').filter(([, p]) =>
    (p.Roles as { Ref: string }[]).some((r) => r.Ref === roleId),
  );
  return policies.flatMap(([, p]) =>
    (p.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement.flatMap((s) => s.Action),
  );
};

describe('api stack', () => {
  it('passes the AWS Solutions checks with every finding acknowledged', () => {
    expect(reprise.nagFailure).toBeUndefined();
  });

  it.each([
    ['api', 29],
    ['events', 900],
    ['runner', 900],
    ['scheduled', 60],
    ['sweeper', 300],
    ['task-events', 60],
  ])('runs %s on Node 22, arm64, JSON logs, timeout %i s', (name, timeout) => {
    const [, props] = fn(name);
    expect(props).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: timeout });
    expect(props.LoggingConfig.LogFormat).toBe('JSON');
    expect(props.Environment.Variables).toMatchObject({ STAGE: 'test', TABLE_NAME: expect.anything() });
  });

  it('gives the api the JWT, runner and fleet-function settings, and only the fleet the ECS ones', () => {
    const vars = fn('api')[1].Environment.Variables;
    for (const name of [
      'JWKS_URL',
      'JWT_ISSUER',
      'JWT_AUDIENCE',
      'RUNNER_FUNCTION_NAME',
      'FLEET_FUNCTION_NAME',
      'SCHEDULE_GROUP',
      'SCHEDULER_ROLE_ARN',
      'SCHEDULED_FUNCTION_ARN',
    ]) {
      expect(vars, name).toHaveProperty(name);
    }
    expect(JSON.stringify(vars.JWT_ISSUER)).toContain('https://cognito-idp.');
    // Every handler builds the shared composition root, which reaches agents via the fleet function.
    for (const name of ['events', 'runner', 'scheduled', 'sweeper']) {
      expect(fn(name)[1].Environment.Variables, name).toHaveProperty('FLEET_FUNCTION_NAME');
      expect(fn(name)[1].Environment.Variables, name).not.toHaveProperty('AGENT_CLUSTER_ARN');
    }
    const fleetVars = fn('fleet')[1].Environment.Variables;
    for (const name of [
      'AGENT_CLUSTER_ARN',
      'AGENT_SUBNET_IDS',
      'AGENT_SECURITY_GROUP_ID',
      'EFS_FILE_SYSTEM_ID',
      'ARCHIVE_BUCKET',
      'AGENT_IMAGE_URI',
      'AGENT_EXECUTION_ROLE_ARN',
      'AGENT_ROLE_BOUNDARY_ARN',
      'AGENT_ROLE_PATH',
      'AGENT_LOG_GROUP',
    ]) {
      expect(fleetVars, name).toHaveProperty(name);
    }
    // The sweeper dispatches queued runs an event missed.
    expect(fn('sweeper')[1].Environment.Variables).toHaveProperty('RUNNER_FUNCTION_NAME');
    // The streaming entry builds the same app as the api, so it needs the same settings.
    expect(Object.keys(fn('events')[1].Environment.Variables)).toEqual(
      expect.arrayContaining([
        'JWKS_URL',
        'JWT_ISSUER',
        'JWT_AUDIENCE',
        'SCHEDULE_GROUP',
        'SCHEDULER_ROLE_ARN',
      ]),
    );
    expect(actionsOf('events').some((a) => a.startsWith('scheduler:'))).toBe(false);
  });

  it('runs the fleet on Node 22, arm64, long enough to wait for a task to become healthy', () => {
    expect(fn('fleet')[1]).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: 300 });
  });

  it('lets each function call only what it needs', () => {
    const controlPlane = [
      'ecs:RunTask',
      'ecs:DescribeTasks',
      'iam:CreateRole',
      'elasticfilesystem:CreateAccessPoint',
    ];
    expect(actionsOf('fleet')).toEqual(
      expect.arrayContaining([...controlPlane, 'secretsmanager:GetSecretValue']),
    );
    expect(actionsOf('fleet').some((a) => a.startsWith('dynamodb:'))).toBe(false);
    for (const name of ['api', 'events', 'runner', 'scheduled', 'sweeper', 'task-events']) {
      const actions = actionsOf(name);
      expect(actions, name).not.toContain('dynamodb:Scan');
      for (const forbidden of [...controlPlane, 'secretsmanager:GetSecretValue'])
        expect(actions, name).not.toContain(forbidden);
    }
    expect(actionsOf('api')).toEqual(
      expect.arrayContaining([
        'dynamodb:PutItem',
        'lambda:InvokeFunction',
        'scheduler:CreateSchedule',
        'iam:PassRole',
      ]),
    );
    expect(actionsOf('runner')).toEqual(
      expect.arrayContaining(['dynamodb:UpdateItem', 'lambda:InvokeFunction']),
    );
    expect(actionsOf('scheduled')).toContain('lambda:InvokeFunction');
    expect(actionsOf('events').filter((a) => a.startsWith('dynamodb:'))).not.toContain('dynamodb:PutItem');
    expect(actionsOf('events')).not.toContain('lambda:InvokeFunction');
    expect(
      actionsOf('sweeper').every(
        (a) =>
          a.startsWith('dynamodb:') ||
          a.startsWith('logs:') ||
          ['s3:GetObject', 's3:PutObject', 'lambda:InvokeFunction'].includes(a),
      ),
    ).toBe(true);
  });

  it('lets the functions that store executions read and write payload objects, and events only read', () => {
    const bucket = (p: Record<string, unknown>) => JSON.stringify(p).includes('reprise-test-payloads-');
    for (const name of ['api', 'runner', 'scheduled', 'sweeper']) {
      expect(actionsOf(name), name).toEqual(expect.arrayContaining(['s3:GetObject', 's3:PutObject']));
      expect(fn(name)[1].Environment.Variables, name).toHaveProperty('PAYLOAD_BUCKET');
    }
    expect(actionsOf('events')).toContain('s3:GetObject');
    expect(actionsOf('events')).not.toContain('s3:PutObject');
    expect(fn('fleet')[1].Environment.Variables).not.toHaveProperty('PAYLOAD_BUCKET');
    const statements = resourcesOfType(api, 'AWS::IAM::Policy').flatMap(([, p]) =>
      (p.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement.filter(bucket),
    );
    expect(statements.length).toBeGreaterThan(0);
    for (const st of statements) expect(JSON.stringify(st.Resource)).toContain('/*');
  });

  it('scopes table access to tenant partitions and named indexes', () => {
    api.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Sid: 'ReadWriteTenantItems',
            Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['T#*', 'TENANTS'] } },
            Resource: Match.arrayWith([{ 'Fn::Join': ['', [Match.anyValue(), '/index/gsi3']] }]),
          }),
        ]),
      },
    });
  });

  it('lets only the fleet create agent roles, and only under the permissions boundary', () => {
    expect(actionsOf('api')).not.toContain('iam:CreateRole');
    api.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: ['iam:CreateRole', 'iam:PutRolePolicy'],
            Condition: { StringEquals: { 'iam:PermissionsBoundary': Match.anyValue() } },
          }),
        ]),
      },
    });
  });

  it('streams the SSE route from the events function for up to 15 minutes', () => {
    const [[, method]] = resourcesOfType(api, 'AWS::ApiGateway::Method').filter(
      ([id, p]) => p.HttpMethod === 'GET' && id.includes('events'),
    ) as [[string, { Integration: Record<string, unknown> }]];
    expect(method.Integration).toMatchObject({
      Type: 'AWS_PROXY',
      ResponseTransferMode: 'STREAM',
      TimeoutInMillis: 900_000,
    });
    const uri = JSON.stringify(method.Integration.Uri);
    expect(uri).toContain('/response-streaming-invocations');
    expect(uri).toContain(fn('events')[0]);
  });

  it('routes the rest of /api to the api function on a regional endpoint', () => {
    api.hasResourceProperties('AWS::ApiGateway::RestApi', { EndpointConfiguration: { Types: ['REGIONAL'] } });
    const proxies = resourcesOfType(api, 'AWS::ApiGateway::Resource').filter(
      ([, p]) => p.PathPart === '{proxy+}',
    );
    expect(proxies).toHaveLength(2);
    const anyMethods = resourcesOfType(api, 'AWS::ApiGateway::Method').filter(
      ([, p]) => p.HttpMethod === 'ANY',
    );
    for (const [, method] of anyMethods) {
      expect(JSON.stringify(method.Integration)).toContain(fn('api')[0]);
    }
  });

  it('sweeps (stale runs, idle agents, missed queues) every minute', () => {
    api.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fn('sweeper')[0], 'Arn'] } })],
    });
    expect(fn('sweeper')[1].Environment.Variables).toHaveProperty('RUNNER_FUNCTION_NAME');
    expect(actionsOf('sweeper')).toContain('lambda:InvokeFunction');
  });

  it("sends the agents cluster's Task State Change events to the task-events function, which may dispatch", () => {
    api.hasResourceProperties('AWS::Events::Rule', {
      EventPattern: Match.objectLike({
        source: ['aws.ecs'],
        'detail-type': ['ECS Task State Change'],
        detail: Match.objectLike({ lastStatus: ['RUNNING', 'STOPPED'], clusterArn: Match.anyValue() }),
      }),
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fn('task-events')[0], 'Arn'] } })],
    });
    api.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'events.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [fn('task-events')[0], 'Arn'] },
    });
    const [, props] = fn('task-events');
    expect(props).toHaveProperty('VpcConfig');
    expect(props.Environment.Variables).toHaveProperty('RUNNER_FUNCTION_NAME');
    const actions = actionsOf('task-events');
    expect(actions).toContain('lambda:InvokeFunction');
    expect(actions).toContain('dynamodb:UpdateItem');
    expect(actions.some((a) => a.startsWith('ecs:'))).toBe(false);
  });

  it('places the functions that reach agent servers in the VPC and keeps the others out', () => {
    expect(fn('runner')[1]).toHaveProperty('VpcConfig');
    // It stops the turn a timed-out runner left going on its agent.
    expect(fn('dead-letter')[1]).toHaveProperty('VpcConfig');
    expect(fn('api')[1]).toHaveProperty('VpcConfig');
    expect(fn('fleet')[1]).toHaveProperty('VpcConfig');
    expect(fn('sweeper')[1]).not.toHaveProperty('VpcConfig');
  });
});
