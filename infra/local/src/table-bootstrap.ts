import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, tableDefinition } from '@reprise/functions/table';

/**
 * Creates the table from the shared definition, or adds any index the definition gained since the
 * data directory was created — a restart never loses data.
 */
export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
): Promise<'created' | 'updated' | 'ready'> {
  const input = createTableInput(tableName);
  let existing: string[] | null = null;
  try {
    const out = await client.send(new DescribeTableCommand({ TableName: tableName }));
    existing = (out.Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName ?? '');
  } catch (e) {
    if (!(e instanceof ResourceNotFoundException)) throw e;
  }
  if (existing === null) {
    await client.send(new CreateTableCommand(input));
    await enableTtl(client, tableName);
    return 'created';
  }
  const missing = input.GlobalSecondaryIndexes.filter((i) => !existing.includes(i.IndexName));
  for (const index of missing) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: input.AttributeDefinitions,
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
  }
  return missing.length > 0 ? 'updated' : 'ready';
}

async function enableTtl(client: DynamoDBClient, tableName: string): Promise<void> {
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
    }),
  );
}
