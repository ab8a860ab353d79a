import { ArnFormat, Fn, type Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { agentTokenSecretArns, readAgentTokens } from './agent-policies';
import type { AgentsStack } from './agents-stack';

/** Names the EcsAgentFleet gives per-agent resources; the grants below are scoped to them. */
export const agentRolePath = (stage: string) => `/reprise/${stage}/agents/`;
export const taskFamilyPrefix = (stage: string) => `reprise_${stage}_`;

/** The settings the fleet reads (functions/src/fleet/ecs/config.ts reads exactly these names). */
export function fleetEnvironment(agents: AgentsStack, stage: string): Record<string, string> {
  return {
    AGENT_CLUSTER_ARN: agents.cluster.clusterArn,
    AGENT_SUBNET_IDS: Fn.join(
      ',',
      agents.network.vpc.privateSubnets.map((s) => s.subnetId),
    ),
    AGENT_SECURITY_GROUP_ID: agents.network.agentSecurityGroup.securityGroupId,
    EFS_FILE_SYSTEM_ID: agents.fileSystem.fileSystemId,
    ARCHIVE_BUCKET: agents.archiveBucket.bucketName,
    AGENT_IMAGE_URI: agents.image.imageUri,
    AGENT_EXECUTION_ROLE_ARN: agents.executionRole.roleArn,
    AGENT_ROLE_BOUNDARY_ARN: agents.agentRoleBoundary.managedPolicyArn,
    AGENT_ROLE_PATH: agentRolePath(stage),
    AGENT_LOG_GROUP: agents.logGroup.logGroupName,
    ANTHROPIC_SECRET_ARN: agents.anthropicKey.secretArn,
  };
}

const arns = (stack: Stack, agents: AgentsStack, stage: string) => ({
  taskDefinitions: stack.formatArn({
    service: 'ecs',
    resource: 'task-definition',
    resourceName: `${taskFamilyPrefix(stage)}*`,
  }),
  tasks: stack.formatArn({ service: 'ecs', resource: 'task', resourceName: `${agents.clusterName}/*` }),
  agentRoles: stack.formatArn({
    service: 'iam',
    region: '',
    resource: 'role',
    resourceName: `${agentRolePath(stage).slice(1)}*`,
  }),
  accessPoints: stack.formatArn({
    service: 'elasticfilesystem',
    resource: 'access-point',
    resourceName: '*',
    arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
  }),
});

const clusterIs = (agents: AgentsStack) => ({ ArnEquals: { 'ecs:cluster': agents.cluster.clusterArn } });

/** What the runner needs to find a running agent and authenticate to it — read-only. */
export function fleetLookup(stack: Stack, agents: AgentsStack, stage: string): PolicyStatement[] {
  const { tasks } = arns(stack, agents, stage);
  return [
    // ListTasks authorises on the cluster condition, not on a resource ARN.
    new PolicyStatement({
      sid: 'ListAgentTasks',
      actions: ['ecs:ListTasks'],
      resources: ['*'],
      conditions: clusterIs(agents),
    }),
    new PolicyStatement({ sid: 'DescribeAgentTasks', actions: ['ecs:DescribeTasks'], resources: [tasks] }),
    readAgentTokens(stack, stage),
  ];
}

/** What the api needs to create, start, stop and destroy agents (the EcsAgentFleet's calls). */
export function fleetManagement(stack: Stack, agents: AgentsStack, stage: string): PolicyStatement[] {
  const a = arns(stack, agents, stage);
  const boundary = { StringEquals: { 'iam:PermissionsBoundary': agents.agentRoleBoundary.managedPolicyArn } };
  return [
    ...fleetLookup(stack, agents, stage),
    new PolicyStatement({
      sid: 'RunAgentTasks',
      actions: ['ecs:RunTask'],
      resources: [a.taskDefinitions],
      conditions: clusterIs(agents),
    }),
    new PolicyStatement({ sid: 'StopAgentTasks', actions: ['ecs:StopTask'], resources: [a.tasks] }),
    new PolicyStatement({
      sid: 'TagOnCreate',
      actions: ['ecs:TagResource'],
      resources: [a.tasks, a.taskDefinitions],
      conditions: { StringEquals: { 'ecs:CreateAction': ['RunTask', 'RegisterTaskDefinition'] } },
    }),
    // These ECS task-definition actions support no resource-level permissions.
    new PolicyStatement({
      sid: 'ManageTaskDefinitions',
      actions: [
        'ecs:RegisterTaskDefinition',
        'ecs:DeregisterTaskDefinition',
        'ecs:DescribeTaskDefinition',
        'ecs:ListTaskDefinitions',
      ],
      resources: ['*'],
    }),
    new PolicyStatement({
      sid: 'PassAgentRoles',
      actions: ['iam:PassRole'],
      resources: [agents.executionRole.roleArn, a.agentRoles],
      conditions: { StringEquals: { 'iam:PassedToService': 'ecs-tasks.amazonaws.com' } },
    }),
    // A role can only be created or given policies while it carries the agent boundary, so the
    // api cannot mint a role more powerful than an agent's ceiling.
    new PolicyStatement({
      sid: 'CreateBoundedAgentRoles',
      actions: ['iam:CreateRole', 'iam:PutRolePolicy'],
      resources: [a.agentRoles],
      conditions: boundary,
    }),
    new PolicyStatement({
      sid: 'RemoveAgentRoles',
      actions: ['iam:TagRole', 'iam:GetRole', 'iam:DeleteRolePolicy', 'iam:DeleteRole'],
      resources: [a.agentRoles],
    }),
    new PolicyStatement({
      sid: 'CreateAccessPoints',
      actions: ['elasticfilesystem:CreateAccessPoint'],
      resources: [agents.fileSystem.fileSystemArn],
    }),
    new PolicyStatement({
      sid: 'TagNewAccessPoints',
      actions: ['elasticfilesystem:TagResource'],
      resources: [a.accessPoints],
      conditions: { StringEquals: { 'elasticfilesystem:CreateAction': 'CreateAccessPoint' } },
    }),
    new PolicyStatement({
      sid: 'DeleteOwnAccessPoints',
      actions: ['elasticfilesystem:DeleteAccessPoint'],
      resources: [a.accessPoints],
      conditions: { StringEquals: { 'aws:ResourceTag/reprise:stage': stage } },
    }),
    new PolicyStatement({
      sid: 'ManageAgentTokens',
      actions: ['secretsmanager:CreateSecret', 'secretsmanager:DeleteSecret', 'secretsmanager:TagResource'],
      resources: [agentTokenSecretArns(stack, stage)],
    }),
  ];
}
