import type { RegisterTaskDefinitionCommandInput } from '@aws-sdk/client-ecs';
import { AGENT_PORT } from '../../lib/agent-events';
import type { AgentRef } from '../agent-fleet';
import type { EcsFleetConfig } from './config';
import { type AgentResourceNames, agentTags } from './names';

export { AGENT_PORT };
export const CONTAINER_NAME = 'agent';
export const HOME_VOLUME = 'home';
/** The container's HOME: the agent's EFS access point, where Claude keeps its sessions. */
export const AGENT_HOME = '/home/agent';
/**
 * ECS's SIGTERM → SIGKILL grace (Fargate's maximum): the agent server cancels its runs, writes
 * their results and archives their transcripts within it.
 */
export const STOP_TIMEOUT_SECONDS = 120;

export interface TaskDefinitionInputs {
  readonly ref: AgentRef;
  readonly names: AgentResourceNames;
  readonly accessPointId: string;
  readonly taskRoleArn: string;
}

// Fargate ignores the image's HEALTHCHECK; this one feeds the task's health status.
const healthCommand = `node -e "fetch('http://127.0.0.1:${AGENT_PORT}/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"`;

export function taskDefinitionInput(
  config: EcsFleetConfig,
  { ref, names, accessPointId, taskRoleArn }: TaskDefinitionInputs,
): RegisterTaskDefinitionCommandInput {
  const secrets = [
    // By name: same account and region as the task, and the name is known before the ARN suffix.
    { name: 'AGENT_TOKEN', valueFrom: names.secretName },
    ...(config.anthropicSecretArn
      ? [{ name: 'ANTHROPIC_API_KEY', valueFrom: config.anthropicSecretArn }]
      : []),
  ];
  return {
    family: names.family,
    taskRoleArn,
    executionRoleArn: config.executionRoleArn,
    networkMode: 'awsvpc',
    requiresCompatibilities: ['FARGATE'],
    cpu: config.cpu,
    memory: config.memory,
    runtimePlatform: { cpuArchitecture: 'ARM64', operatingSystemFamily: 'LINUX' },
    containerDefinitions: [
      {
        name: CONTAINER_NAME,
        image: config.imageUri,
        essential: true,
        user: '1000:1000',
        portMappings: [{ containerPort: AGENT_PORT, protocol: 'tcp' }],
        environment: [
          { name: 'PORT', value: String(AGENT_PORT) },
          { name: 'AGENT_HOME', value: AGENT_HOME },
          { name: 'ARCHIVE_BUCKET', value: config.archiveBucket },
          { name: 'ARCHIVE_PREFIX', value: names.archivePrefix },
          { name: 'REPRISE_TENANT', value: ref.tenant },
          { name: 'REPRISE_AGENT', value: ref.agent },
          { name: 'AGENT_RUNTIME', value: ref.runtime ?? 'claude' },
        ],
        secrets,
        mountPoints: [{ sourceVolume: HOME_VOLUME, containerPath: AGENT_HOME, readOnly: false }],
        stopTimeout: STOP_TIMEOUT_SECONDS,
        healthCheck: {
          command: ['CMD-SHELL', healthCommand],
          interval: 15,
          timeout: 5,
          retries: 3,
          startPeriod: 20,
        },
        logConfiguration: {
          logDriver: 'awslogs',
          options: {
            'awslogs-group': config.logGroup,
            'awslogs-region': config.region,
            'awslogs-stream-prefix': names.family,
          },
        },
      },
    ],
    volumes: [
      {
        name: HOME_VOLUME,
        efsVolumeConfiguration: {
          fileSystemId: config.fileSystemId,
          // TLS plus the task role's IAM identity: the file system policy refuses anything else.
          transitEncryption: 'ENABLED',
          authorizationConfig: { accessPointId, iam: 'ENABLED' },
        },
      },
    ],
    tags: agentTags(config.stage, ref),
  };
}
