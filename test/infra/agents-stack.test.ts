import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { resourcesOfType, type SynthesizedReprise, synthReprise } from './synth-reprise';

let reprise: SynthesizedReprise;
let agents: Template;

beforeAll(() => {
  reprise = synthReprise();
  agents = reprise.template(reprise.stacks.agents);
}, 120_000);

const groupId = (template: Template, name: string): string => {
  const found = resourcesOfType(template, 'AWS::EC2::SecurityGroup').find(
    ([, p]) => p.GroupName === `reprise-test-${name}`,
  );
  if (!found) throw new Error(`no security group ${name}`);
  return found[0];
};

describe('agents stack', () => {
  it('passes the AWS Solutions checks with every finding acknowledged', () => {
    expect(reprise.nagFailure).toBeUndefined();
  });

  it('encrypts the homes file system, backs it up and keeps it outside dev', () => {
    agents.hasResource('AWS::EFS::FileSystem', {
      Properties: Match.objectLike({ Encrypted: true, BackupPolicy: { Status: 'ENABLED' } }),
      DeletionPolicy: 'Retain',
    });
  });

  it('lets clients mount the homes only over TLS and through an access point', () => {
    const [[, fs]] = resourcesOfType(agents, 'AWS::EFS::FileSystem') as [
      [string, { FileSystemPolicy: unknown }],
    ];
    expect(fs.FileSystemPolicy).toMatchObject({
      Statement: expect.arrayContaining([
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        expect.objectContaining({
          Effect: 'Deny',
          Condition: { Null: { 'elasticfilesystem:AccessPointArn': 'true' } },
        }),
      ]),
    });
  });

  it('opens the agent port only to the runner and api functions', () => {
    const agentsSg = groupId(agents, 'agents');
    const rules = resourcesOfType(agents, 'AWS::EC2::SecurityGroupIngress').filter(
      ([, p]) => JSON.stringify(p.GroupId) === JSON.stringify({ 'Fn::GetAtt': [agentsSg, 'GroupId'] }),
    );
    expect(
      rules
        .map(([, p]) => [
          p.FromPort,
          p.ToPort,
          (p.SourceSecurityGroupId as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0],
        ])
        .sort(),
    ).toEqual(
      [
        [8080, 8080, groupId(agents, 'api')],
        [8080, 8080, groupId(agents, 'runner')],
      ].sort(),
    );
    const homes = resourcesOfType(agents, 'AWS::EC2::SecurityGroupIngress').filter(
      ([, p]) => p.FromPort === 2049,
    );
    expect(homes).toHaveLength(1);
    expect(JSON.stringify(homes[0]![1].SourceSecurityGroupId)).toContain(agentsSg);
    for (const [, sg] of resourcesOfType(agents, 'AWS::EC2::SecurityGroup')) {
      expect(JSON.stringify(sg.SecurityGroupIngress ?? [])).not.toContain('0.0.0.0/0');
    }
  });

  it('runs agents in two private subnets with S3 and DynamoDB gateway endpoints', () => {
    const privateSubnets = resourcesOfType(agents, 'AWS::EC2::Subnet').filter(
      ([, p]) => p.MapPublicIpOnLaunch === false,
    );
    expect(privateSubnets).toHaveLength(2);
    expect(resourcesOfType(agents, 'AWS::EC2::NatGateway')).toHaveLength(2);
    const endpoints = resourcesOfType(agents, 'AWS::EC2::VPCEndpoint').map(([, p]) =>
      JSON.stringify(p.ServiceName),
    );
    expect(endpoints.some((s) => s.includes('.s3'))).toBe(true);
    expect(endpoints.some((s) => s.includes('.dynamodb'))).toBe(true);
    agents.resourceCountIs('AWS::EC2::FlowLog', 1);
  });

  it('enables container insights on the cluster', () => {
    agents.hasResourceProperties('AWS::ECS::Cluster', {
      ClusterName: 'reprise-test-agents',
      ClusterSettings: [{ Name: 'containerInsights', Value: 'enabled' }],
    });
  });

  it('archives transcripts in a private, versioned, encrypted, TLS-only bucket', () => {
    agents.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      BucketEncryption: Match.objectLike({}),
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    agents.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('bounds agent roles to mounting the homes and their archive prefix', () => {
    agents.hasResourceProperties('AWS::IAM::ManagedPolicy', {
      ManagedPolicyName: 'reprise-test-agent-boundary',
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: ['elasticfilesystem:ClientMount', 'elasticfilesystem:ClientWrite'] }),
          Match.objectLike({ Action: ['s3:GetObject', 's3:PutObject'] }),
        ]),
      },
    });
    const boundary = JSON.stringify(agents.findResources('AWS::IAM::ManagedPolicy'));
    expect(boundary).not.toContain('ClientRootAccess');
  });

  it('lets the execution role read agent tokens but not write them', () => {
    const policies = JSON.stringify(agents.findResources('AWS::IAM::Policy'));
    expect(policies).toContain('secret:reprise/test/*/token-??????');
    expect(policies).not.toContain('secretsmanager:CreateSecret');
    agents.hasResourceProperties('AWS::IAM::Role', {
      RoleName: 'reprise-test-agent-execution',
      AssumeRolePolicyDocument: {
        Statement: [Match.objectLike({ Principal: { Service: 'ecs-tasks.amazonaws.com' } })],
      },
    });
  });
});
