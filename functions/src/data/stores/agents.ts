import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../lib/errors';
import type { Runtime } from '../../lib/schemas/agents';
import type { Db } from '../client';
import { isConditionFailure, recordOf } from '../client';
import { keys } from '../keys';

export interface AgentRecord {
  readonly tenant: string;
  readonly name: string;
  readonly runtime: Runtime;
  readonly owner_user_id: string;
  readonly owner_email: string;
  readonly shared_with: string[];
  readonly created_at: string;
}

const toRecord = (item: Record<string, unknown>) => recordOf<AgentRecord>(item);

export class AgentStore {
  constructor(private readonly db: Db) {}

  async createAgent(agent: AgentRecord): Promise<void> {
    try {
      await this.db.doc.send(
        new PutCommand({
          TableName: this.db.table,
          Item: { ...keys.agent(agent.tenant, agent.name), type: 'agent', ...agent },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (e) {
      if (isConditionFailure(e)) throw new ConflictError(`An agent named ${agent.name} already exists`);
      throw e;
    }
  }

  async getAgent(tenant: string, name: string): Promise<AgentRecord | null> {
    const out = await this.db.doc.send(
      new GetCommand({ TableName: this.db.table, Key: keys.agent(tenant, name) }),
    );
    return out.Item ? toRecord(out.Item) : null;
  }

  async listAgentsByTenant(tenant: string): Promise<AgentRecord[]> {
    const items: AgentRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.db.doc.send(
        new QueryCommand({
          TableName: this.db.table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :a)',
          ExpressionAttributeValues: { ':pk': keys.tenant(tenant).pk, ':a': 'A#' },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(out.Items ?? []).map(toRecord));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }

  async updateSharing(tenant: string, name: string, sharedWith: string[]): Promise<AgentRecord> {
    const out = await this.db.doc.send(
      new UpdateCommand({
        TableName: this.db.table,
        Key: keys.agent(tenant, name),
        UpdateExpression: 'SET shared_with = :s',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':s': sharedWith },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toRecord(out.Attributes ?? {});
  }

  async deleteAgent(tenant: string, name: string): Promise<void> {
    await this.db.doc.send(new DeleteCommand({ TableName: this.db.table, Key: keys.agent(tenant, name) }));
  }
}
