/**
 * The one table definition. The CDK data stack and the local bootstrap both build the table from
 * this object, so the cloud and the laptop cannot drift apart.
 *
 * Generic keys: every entity maps its access patterns onto pk/sk and up to three GSIs (see keys.ts).
 * gsi1 — lists by parent (executions of an agent, chats of a user, schedules of an agent).
 * gsi2 — filtered lists (executions of an agent by status, chats of an agent for admins).
 * gsi3 — the session-owner index: `T#<tenant>#A#<agent>#S#<session>` → executions (the resume gate).
 */
export const TTL_ATTRIBUTE = 'expires_at';

export interface IndexDefinition {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
}

export interface TableDefinition {
  readonly partitionKey: string;
  readonly sortKey: string;
  readonly indexes: readonly IndexDefinition[];
  readonly ttlAttribute: string;
}

export const tableDefinition: TableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ],
  ttlAttribute: TTL_ATTRIBUTE,
};

export type IndexName = 'gsi1' | 'gsi2' | 'gsi3';

/** The CreateTable request for DynamoDB (SDK shape, without importing the SDK here). */
export function createTableInput(tableName: string) {
  const keyAttributes = [
    tableDefinition.partitionKey,
    tableDefinition.sortKey,
    ...tableDefinition.indexes.flatMap((i) => [i.partitionKey, i.sortKey]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: tableDefinition.indexes.map((i) => ({
      IndexName: i.name,
      KeySchema: [
        { AttributeName: i.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: i.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}
