import { Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Cluster, ContainerInsights } from 'aws-cdk-lib/aws-ecs';
import { FileSystem, LifecyclePolicy, ThroughputMode } from 'aws-cdk-lib/aws-efs';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type CfnBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { AgentImage, type AgentImageProps } from './agent-image';
import { agentBoundaryStatements, homesFileSystemPolicy, readAgentTokens } from './agent-policies';
import { AgentsNetwork } from './agents-network';
import { acknowledgeWildcards, nagArn } from './nag';
import { isEphemeral, resourceName, statefulRemoval } from './naming';

export interface AgentsStackProps extends StackProps {
  readonly stage: string;
  readonly image?: AgentImageProps;
}

/**
 * Shared infrastructure for the agent fleet. Per-agent resources (EFS access point, IAM task role,
 * task definition, token secret) are made at runtime by the EcsAgentFleet when an agent is created.
 */
export class AgentsStack extends Stack {
  readonly network: AgentsNetwork;
  readonly cluster: Cluster;
  /** A literal (not a token), so task ARNs in grants and nag findings are predictable. */
  readonly clusterName: string;
  readonly fileSystem: FileSystem;
  readonly archiveBucket: Bucket;
  readonly logGroup: LogGroup;
  readonly executionRole: Role;
  /** Every per-agent task role is created with this boundary, so it can never exceed it. */
  readonly agentRoleBoundary: ManagedPolicy;
  readonly anthropicKey: Secret;
  readonly image: AgentImage;

  constructor(scope: Construct, id: string, props: AgentsStackProps) {
    super(scope, id, props);
    const { stage } = props;
    this.network = new AgentsNetwork(this, 'Network', stage);
    const { vpc } = this.network;

    this.clusterName = resourceName(stage, 'agents');
    this.cluster = new Cluster(this, 'Cluster', {
      clusterName: this.clusterName,
      vpc,
      containerInsightsV2: ContainerInsights.ENABLED,
    });

    this.fileSystem = new FileSystem(this, 'Homes', {
      vpc,
      vpcSubnets: { subnets: vpc.privateSubnets },
      fileSystemName: resourceName(stage, 'homes'),
      securityGroup: this.network.fileSystemSecurityGroup,
      encrypted: true,
      enableAutomaticBackups: true,
      throughputMode: ThroughputMode.ELASTIC,
      lifecyclePolicy: LifecyclePolicy.AFTER_30_DAYS,
      fileSystemPolicy: homesFileSystemPolicy(),
      removalPolicy: statefulRemoval(stage),
    });

    this.archiveBucket = new Bucket(this, 'Archive', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ noncurrentVersionExpiration: Duration.days(90) }],
      // Transcripts are what "continue as chat" resumes from: never delete them with a stack.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.logGroup = new LogGroup(this, 'AgentLogs', {
      logGroupName: `/reprise/${stage}/agents`,
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: isEphemeral(stage) ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
    });

    this.anthropicKey = new Secret(this, 'AnthropicApiKey', {
      secretName: `reprise/${stage}/platform/anthropic-api-key`,
      description: 'Anthropic API key handed to agent containers; set it with put-secret-value after deploy.',
    });

    this.image = new AgentImage(this, 'AgentImage', props.image);

    this.executionRole = new Role(this, 'AgentExecutionRole', {
      roleName: resourceName(stage, 'agent-execution'),
      assumedBy: new ServicePrincipal('ecs-tasks.amazonaws.com'),
      description: 'ECS pulls the agent image, writes its logs and injects its secrets with this role.',
    });
    this.image.asset.repository.grantPull(this.executionRole);
    this.logGroup.grantWrite(this.executionRole);
    this.anthropicKey.grantRead(this.executionRole);
    this.executionRole.addToPolicy(readAgentTokens(this, stage));

    this.agentRoleBoundary = new ManagedPolicy(this, 'AgentRoleBoundary', {
      managedPolicyName: resourceName(stage, 'agent-boundary'),
      description: 'Permissions boundary of every per-agent task role made by the fleet.',
      statements: agentBoundaryStatements(this.fileSystem.fileSystemArn, this.archiveBucket.bucketArn),
    });

    suppressAgentFindings(this, stage);
  }
}

function suppressAgentFindings(stack: AgentsStack, stage: string): void {
  Validations.of(stack.archiveBucket).acknowledge({
    id: 'AwsSolutions-S1',
    reason:
      'Only per-agent roles confined to their own prefix write here; access auditing is CloudTrail data events, not server access logs.',
  });
  Validations.of(stack.anthropicKey).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'A third-party Anthropic API key: AWS cannot rotate it; operators rotate it in the Anthropic console.',
  });
  acknowledgeWildcards(stack.executionRole, [
    {
      finding: 'Resource::*',
      reason: 'ecr:GetAuthorizationToken has no resource-level permissions (added by grantPull).',
    },
    {
      finding: nagArn('secretsmanager', `secret:reprise/${stage}/*/token-??????`),
      reason:
        "ECS injects each agent's own token secret; agents are created at runtime, so their names are a pattern.",
    },
  ]);
  const archive = stack.getLogicalId(stack.archiveBucket.node.defaultChild as CfnBucket);
  acknowledgeWildcards(stack.agentRoleBoundary, [
    {
      finding: `Resource::<${archive}.Arn>/tenants/*`,
      reason:
        "A boundary is the ceiling for all agents; each agent role's own policy narrows it to tenants/<tenant>/agents/<agent>/.",
    },
  ]);
}
