import {
  DeregisterTaskDefinitionCommand,
  DescribeTaskDefinitionCommand,
  type ECSClient,
  ListTaskDefinitionsCommand,
  RegisterTaskDefinitionCommand,
} from '@aws-sdk/client-ecs';
import {
  AccessPointNotFound,
  CreateAccessPointCommand,
  DeleteAccessPointCommand,
  type EFSClient,
} from '@aws-sdk/client-efs';
import type { IAMClient } from '@aws-sdk/client-iam';
import {
  CreateSecretCommand,
  DeleteSecretCommand,
  ResourceExistsException,
  ResourceNotFoundException,
  type SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import type { AgentRef } from '../agent-fleet';
import { deleteAgentRole, ensureAgentRole } from './agent-role';
import type { EcsFleetConfig } from './config';
import { type AgentResourceNames, agentTags } from './names';
import { HOME_VOLUME, taskDefinitionInput } from './task-definition';

export interface ProvisioningClients {
  readonly ecs: ECSClient;
  readonly efs: EFSClient;
  readonly secrets: SecretsManagerClient;
  readonly iam: IAMClient;
}

/** The uid/gid the agent image runs as; the access point forces every NFS call to it. */
const AGENT_UID = 1000;

/**
 * Every step is idempotent (client token, already-exists handling, a new task-definition
 * revision), so a create that failed half-way is repaired by calling create again.
 */
export async function provisionAgent(
  c: ProvisioningClients,
  config: EcsFleetConfig,
  ref: AgentRef,
  names: AgentResourceNames,
  newToken: () => string,
): Promise<void> {
  const accessPoint = await c.efs.send(
    new CreateAccessPointCommand({
      ClientToken: names.accessPointClientToken,
      FileSystemId: config.fileSystemId,
      PosixUser: { Uid: AGENT_UID, Gid: AGENT_UID },
      RootDirectory: {
        Path: names.rootDirectory,
        CreationInfo: { OwnerUid: AGENT_UID, OwnerGid: AGENT_UID, Permissions: '0750' },
      },
      Tags: [
        { Key: 'Name', Value: names.family },
        ...agentTags(config.stage, ref).map(({ key, value }) => ({ Key: key, Value: value })),
      ],
    }),
  );
  if (!accessPoint.AccessPointId || !accessPoint.AccessPointArn) {
    throw new Error(`EFS returned no access point for ${ref.tenant}/${ref.agent}`);
  }
  const taskRoleArn = await ensureAgentRole(c.iam, config, ref, names, accessPoint.AccessPointArn);
  try {
    await c.secrets.send(
      new CreateSecretCommand({
        Name: names.secretName,
        SecretString: newToken(),
        Description: `Bearer token of Reprise agent ${ref.tenant}/${ref.agent}`,
        Tags: agentTags(config.stage, ref).map(({ key, value }) => ({ Key: key, Value: value })),
      }),
    );
  } catch (error) {
    // Keep the existing token: running callers may have cached it.
    if (!(error instanceof ResourceExistsException)) throw error;
  }
  await c.ecs.send(
    new RegisterTaskDefinitionCommand(
      taskDefinitionInput(config, { ref, names, accessPointId: accessPoint.AccessPointId, taskRoleArn }),
    ),
  );
}

/** Removes the access point, role, token and task definitions. The home directory's files stay on EFS. */
export async function deprovisionAgent(c: ProvisioningClients, names: AgentResourceNames): Promise<void> {
  const accessPointId = await currentAccessPointId(c.ecs, names.family);
  for (const arn of await familyRevisions(c.ecs, names.family)) {
    await c.ecs.send(new DeregisterTaskDefinitionCommand({ taskDefinition: arn }));
  }
  if (accessPointId) {
    await ignore(
      c.efs.send(new DeleteAccessPointCommand({ AccessPointId: accessPointId })),
      AccessPointNotFound,
    );
  }
  await deleteAgentRole(c.iam, names);
  await ignore(
    // No recovery window: a re-created agent of the same name must be able to create it again.
    c.secrets.send(new DeleteSecretCommand({ SecretId: names.secretName, ForceDeleteWithoutRecovery: true })),
    ResourceNotFoundException,
  );
}

async function currentAccessPointId(ecs: ECSClient, family: string): Promise<string | undefined> {
  try {
    const { taskDefinition } = await ecs.send(new DescribeTaskDefinitionCommand({ taskDefinition: family }));
    const home = taskDefinition?.volumes?.find((v) => v.name === HOME_VOLUME);
    return home?.efsVolumeConfiguration?.authorizationConfig?.accessPointId;
  } catch (error) {
    // ECS answers ClientException for a family with no active revision.
    if ((error as { name?: string }).name === 'ClientException') return undefined;
    throw error;
  }
}

/** ACTIVE revisions of exactly this family (familyPrefix also matches longer agent names). */
async function familyRevisions(ecs: ECSClient, family: string): Promise<string[]> {
  const arns: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await ecs.send(
      new ListTaskDefinitionsCommand({ familyPrefix: family, status: 'ACTIVE', nextToken }),
    );
    arns.push(
      ...(page.taskDefinitionArns ?? []).filter((arn) => arn.split('/').pop()?.split(':')[0] === family),
    );
    nextToken = page.nextToken;
  } while (nextToken);
  return arns;
}

type ErrorClass = abstract new (...args: never[]) => Error;

const ignore = async (call: Promise<unknown>, missing: ErrorClass): Promise<void> => {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof missing)) throw error;
  }
};
