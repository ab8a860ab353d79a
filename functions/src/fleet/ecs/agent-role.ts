import {
  CreateRoleCommand,
  DeleteRoleCommand,
  DeleteRolePolicyCommand,
  EntityAlreadyExistsException,
  GetRoleCommand,
  type IAMClient,
  NoSuchEntityException,
  PutRolePolicyCommand,
} from '@aws-sdk/client-iam';
import type { AgentRef } from '../agent-fleet';
import { clusterArnParts, type EcsFleetConfig } from './config';
import { type AgentResourceNames, agentTags } from './names';

export const AGENT_POLICY_NAME = 'agent';

/**
 * One task role per agent (DESIGN §5). ECS cannot put session tags on task-role credentials, so a
 * shared role would carry nothing an EFS or S3 condition could tell agents apart by; a role of
 * its own lets `elasticfilesystem:AccessPointArn` pin the agent to its home, and the S3 resource
 * pin it to its archive prefix. The boundary caps whatever this policy says.
 */
export function agentRolePolicy(config: EcsFleetConfig, names: AgentResourceNames, accessPointArn: string) {
  const { partition, region, account } = clusterArnParts(config.clusterArn);
  const bucket = `arn:${partition}:s3:::${config.archiveBucket}`;
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'MountOwnHome',
        Effect: 'Allow',
        Action: ['elasticfilesystem:ClientMount', 'elasticfilesystem:ClientWrite'],
        Resource: `arn:${partition}:elasticfilesystem:${region}:${account}:file-system/${config.fileSystemId}`,
        Condition: { StringEquals: { 'elasticfilesystem:AccessPointArn': accessPointArn } },
      },
      {
        Sid: 'ArchiveOwnTranscripts',
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:PutObject'],
        Resource: `${bucket}/${names.archivePrefix}*`,
      },
      {
        Sid: 'ListOwnTranscripts',
        Effect: 'Allow',
        Action: 's3:ListBucket',
        Resource: bucket,
        Condition: { StringLike: { 's3:prefix': [`${names.archivePrefix}*`] } },
      },
    ],
  };
}

/** Only ECS tasks of this account may assume it (confused-deputy guard). */
export function agentTrustPolicy(config: EcsFleetConfig) {
  const { partition, region, account } = clusterArnParts(config.clusterArn);
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { Service: 'ecs-tasks.amazonaws.com' },
        Action: 'sts:AssumeRole',
        Condition: {
          StringEquals: { 'aws:SourceAccount': account },
          ArnLike: { 'aws:SourceArn': `arn:${partition}:ecs:${region}:${account}:*` },
        },
      },
    ],
  };
}

/** Creates (or finds, on a retried create) the agent's role and sets its policy; returns the ARN. */
export async function ensureAgentRole(
  iam: IAMClient,
  config: EcsFleetConfig,
  ref: AgentRef,
  names: AgentResourceNames,
  accessPointArn: string,
): Promise<string> {
  let roleArn: string | undefined;
  try {
    const created = await iam.send(
      new CreateRoleCommand({
        RoleName: names.roleName,
        Path: config.rolePath,
        AssumeRolePolicyDocument: JSON.stringify(agentTrustPolicy(config)),
        PermissionsBoundary: config.roleBoundaryArn,
        Description: `Reprise agent ${ref.tenant}/${ref.agent}`,
        Tags: agentTags(config.stage, ref).map(({ key, value }) => ({ Key: key, Value: value })),
      }),
    );
    roleArn = created.Role?.Arn;
  } catch (error) {
    if (!(error instanceof EntityAlreadyExistsException)) throw error;
    roleArn = (await iam.send(new GetRoleCommand({ RoleName: names.roleName }))).Role?.Arn;
  }
  if (!roleArn) throw new Error(`IAM returned no ARN for role ${names.roleName}`);
  await iam.send(
    new PutRolePolicyCommand({
      RoleName: names.roleName,
      PolicyName: AGENT_POLICY_NAME,
      PolicyDocument: JSON.stringify(agentRolePolicy(config, names, accessPointArn)),
    }),
  );
  return roleArn;
}

export async function deleteAgentRole(iam: IAMClient, names: AgentResourceNames): Promise<void> {
  await ignoreMissing(
    iam.send(new DeleteRolePolicyCommand({ RoleName: names.roleName, PolicyName: AGENT_POLICY_NAME })),
  );
  await ignoreMissing(iam.send(new DeleteRoleCommand({ RoleName: names.roleName })));
}

const ignoreMissing = async (call: Promise<unknown>): Promise<void> => {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof NoSuchEntityException)) throw error;
  }
};
