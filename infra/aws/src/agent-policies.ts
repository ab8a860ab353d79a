import { ArnFormat, type Stack } from 'aws-cdk-lib';
import { AnyPrincipal, Effect, PolicyDocument, PolicyStatement } from 'aws-cdk-lib/aws-iam';

const CLIENT_ACTIONS = ['elasticfilesystem:ClientMount', 'elasticfilesystem:ClientWrite'];

/**
 * The homes file system answers only TLS clients that come through an access point. Grants come
 * from identity policies: each agent's own task role allows ClientMount/ClientWrite with the
 * condition `elasticfilesystem:AccessPointArn` = its own access point, so one agent cannot mount
 * another's home even though they share the file system. Nobody gets ClientRootAccess.
 */
export function homesFileSystemPolicy(): PolicyDocument {
  return new PolicyDocument({
    statements: [
      new PolicyStatement({
        sid: 'DenyUnencryptedTransport',
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ['*'],
        conditions: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
      new PolicyStatement({
        sid: 'DenyMountsWithoutAccessPoint',
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: [...CLIENT_ACTIONS, 'elasticfilesystem:ClientRootAccess'],
        conditions: { Null: { 'elasticfilesystem:AccessPointArn': 'true' } },
      }),
    ],
  });
}

/**
 * The ceiling for every per-agent task role. The fleet's inline policy narrows it further to the
 * agent's own access point and its own archive prefix `tenants/<tenant>/agents/<agent>/`.
 * Why per-agent roles rather than one shared role: ECS cannot attach session tags to task-role
 * credentials, so a shared role has no per-agent attribute an EFS or S3 condition could match.
 */
export function agentBoundaryStatements(fileSystemArn: string, archiveBucketArn: string): PolicyStatement[] {
  return [
    new PolicyStatement({ sid: 'MountOwnHome', actions: CLIENT_ACTIONS, resources: [fileSystemArn] }),
    new PolicyStatement({
      sid: 'ArchiveOwnTranscripts',
      actions: ['s3:GetObject', 's3:PutObject'],
      resources: [`${archiveBucketArn}/tenants/*`],
    }),
    new PolicyStatement({
      sid: 'ListOwnTranscripts',
      actions: ['s3:ListBucket'],
      resources: [archiveBucketArn],
      conditions: { StringLike: { 's3:prefix': ['tenants/*'] } },
    }),
  ];
}

/** Agent tokens are named reprise/<stage>/<tenant>/<agent>/token; Secrets Manager appends -XXXXXX. */
export function agentTokenSecretArns(stack: Stack, stage: string): string {
  return stack.formatArn({
    service: 'secretsmanager',
    resource: 'secret',
    resourceName: `reprise/${stage}/*/token-??????`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
}

export function readAgentTokens(stack: Stack, stage: string): PolicyStatement {
  return new PolicyStatement({
    sid: 'ReadAgentTokens',
    actions: ['secretsmanager:GetSecretValue'],
    resources: [agentTokenSecretArns(stack, stage)],
  });
}
