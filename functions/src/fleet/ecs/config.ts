import { ConfigError, integer, optional, required } from '../../lib/env';

/** Everything the ECS fleet needs, read once from the environment the CDK api stack sets. */
export interface EcsFleetConfig {
  readonly stage: string;
  readonly region: string;
  readonly clusterArn: string;
  readonly subnetIds: readonly string[];
  readonly securityGroupId: string;
  readonly fileSystemId: string;
  readonly archiveBucket: string;
  readonly imageUri: string;
  readonly executionRoleArn: string;
  /** Permissions boundary every per-agent task role is created with. */
  readonly roleBoundaryArn: string;
  /** IAM path of per-agent task roles, e.g. /reprise/dev/agents/. */
  readonly rolePath: string;
  readonly logGroup: string;
  /** Secret holding the Anthropic API key, injected as ANTHROPIC_API_KEY; unset → none. */
  readonly anthropicSecretArn?: string;
  /** Fargate task size (CPU units and MiB, as strings the ECS API takes). */
  readonly cpu: string;
  readonly memory: string;
  /** Bound on RunTask → RUNNING → healthy. Fargate plus an image pull is usually 30–90 s. */
  readonly startTimeoutMs: number;
  readonly pollIntervalMs: number;
}

type Source = Record<string, string | undefined>;

export function readEcsFleetConfig(source: Source = process.env): EcsFleetConfig {
  const subnetIds = required(source, 'AGENT_SUBNET_IDS')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (subnetIds.length === 0) throw new ConfigError('AGENT_SUBNET_IDS must list at least one subnet id');
  const anthropicSecretArn = source.ANTHROPIC_SECRET_ARN || undefined;
  return {
    stage: optional(source, 'STAGE', 'dev'),
    region: required(source, 'AWS_REGION'),
    clusterArn: required(source, 'AGENT_CLUSTER_ARN'),
    subnetIds,
    securityGroupId: required(source, 'AGENT_SECURITY_GROUP_ID'),
    fileSystemId: required(source, 'EFS_FILE_SYSTEM_ID'),
    archiveBucket: required(source, 'ARCHIVE_BUCKET'),
    imageUri: required(source, 'AGENT_IMAGE_URI'),
    executionRoleArn: required(source, 'AGENT_EXECUTION_ROLE_ARN'),
    roleBoundaryArn: required(source, 'AGENT_ROLE_BOUNDARY_ARN'),
    rolePath: required(source, 'AGENT_ROLE_PATH'),
    logGroup: required(source, 'AGENT_LOG_GROUP'),
    ...(anthropicSecretArn ? { anthropicSecretArn } : {}),
    cpu: optional(source, 'AGENT_CPU', '1024'),
    memory: optional(source, 'AGENT_MEMORY', '2048'),
    startTimeoutMs: integer(source, 'AGENT_START_TIMEOUT_MS', 180_000),
    pollIntervalMs: integer(source, 'AGENT_POLL_INTERVAL_MS', 2_000),
  };
}

/** partition, region and account of the cluster — the account every per-agent ARN lives in. */
export function clusterArnParts(clusterArn: string): { partition: string; region: string; account: string } {
  const [arn, partition, service, region, account] = clusterArn.split(':');
  if (arn !== 'arn' || service !== 'ecs' || !partition || !region || !account) {
    throw new ConfigError(`AGENT_CLUSTER_ARN is not an ECS cluster ARN: ${clusterArn}`);
  }
  return { partition, region, account };
}
