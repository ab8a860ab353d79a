import { createTableInput, tableDefinition } from '@reprise/functions/table';
import { Aws, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { isEphemeral, resourceName, statefulRemoval } from './naming';

export interface DataStackProps extends StackProps {
  readonly stage: string;
}

const keyOf = (schema: readonly { AttributeName: string; KeyType: string }[], type: 'HASH' | 'RANGE') => {
  const key = schema.find((k) => k.KeyType === type);
  if (!key) throw new Error(`Table definition has no ${type} key`);
  return { name: key.AttributeName, type: AttributeType.STRING };
};

/**
 * The one table, built from the same CreateTable input the local bootstrap sends to DynamoDB Local,
 * so keys, indexes and projections cannot drift between the laptop and the cloud.
 */
/** Addressed by name from the api stack, like the site bucket, so no export ties the stacks. */
export const payloadBucketName = (stage: string): string =>
  `reprise-${stage}-payloads-${Aws.ACCOUNT_ID}-${Aws.REGION}`;

export class DataStack extends Stack {
  readonly table: Table;
  /** Execution fields and events too large for a DynamoDB item (functions/src/data/payloads). */
  readonly payloads: Bucket;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { stage } = props;
    const input = createTableInput(resourceName(stage, 'table'));
    if (input.AttributeDefinitions.some((a) => a.AttributeType !== 'S')) {
      throw new Error('Every key attribute of the Reprise table is a string');
    }

    this.table = new Table(this, 'Table', {
      tableName: input.TableName,
      partitionKey: keyOf(input.KeySchema, 'HASH'),
      sortKey: keyOf(input.KeySchema, 'RANGE'),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: !isEphemeral(stage),
      removalPolicy: statefulRemoval(stage),
      timeToLiveAttribute: tableDefinition.ttlAttribute,
    });
    for (const index of input.GlobalSecondaryIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.IndexName,
        partitionKey: keyOf(index.KeySchema, 'HASH'),
        sortKey: keyOf(index.KeySchema, 'RANGE'),
        projectionType: ProjectionType[index.Projection.ProjectionType],
      });
    }

    this.payloads = new Bucket(this, 'Payloads', {
      bucketName: payloadBucketName(stage),
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Part of the execution records: kept, like the table, when a non-dev stack goes away.
      removalPolicy: statefulRemoval(stage),
      autoDeleteObjects: false,
    });
    Validations.of(this.payloads).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'Only the platform functions read and write here, each through its own role; auditing is CloudTrail data events, not server access logs.',
    });
  }
}
