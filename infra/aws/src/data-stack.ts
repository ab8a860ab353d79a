import { createTableInput, tableDefinition } from '@reprise/functions/table';
import { Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
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
export class DataStack extends Stack {
  readonly table: Table;

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
  }
}
