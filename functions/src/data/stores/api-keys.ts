import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '../../lib/schemas/common';
import type { Db } from '../client';
import { applied } from '../client';
import { keys } from '../keys';

export interface ApiKeyRecord {
  readonly tenant: string;
  readonly id: string;
  readonly name: string;
  /** sha256 of the secret part, hex. The key itself is never stored. */
  readonly secret_hash: string;
  readonly user_id: string;
  readonly email: string;
  readonly role: Role;
  readonly created_at: string;
}

export class ApiKeyStore {
  constructor(private readonly db: Db) {}

  async createApiKey(record: ApiKeyRecord): Promise<void> {
    await this.db.doc.send(
      new PutCommand({
        TableName: this.db.table,
        Item: { ...keys.apiKey(record.tenant, record.id), type: 'api_key', ...record },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getApiKey(tenant: string, id: string): Promise<ApiKeyRecord | null> {
    const out = await this.db.doc.send(
      new GetCommand({ TableName: this.db.table, Key: keys.apiKey(tenant, id) }),
    );
    return (out.Item as ApiKeyRecord | undefined) ?? null;
  }

  /** The keys of one tenant (few per tenant: one partition, `K#` prefix). */
  async listApiKeysByTenant(tenant: string): Promise<ApiKeyRecord[]> {
    const out = await this.db.doc.send(
      new QueryCommand({
        TableName: this.db.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :k)',
        ExpressionAttributeValues: { ':pk': keys.tenant(tenant).pk, ':k': 'K#' },
      }),
    );
    return (out.Items ?? []) as ApiKeyRecord[];
  }

  /** Deletes only when the caller may (owner, or any key for admins); false when nothing matched. */
  async deleteApiKey(tenant: string, id: string, userId: string | null): Promise<boolean> {
    return applied(
      this.db.doc.send(
        new DeleteCommand({
          TableName: this.db.table,
          Key: keys.apiKey(tenant, id),
          ConditionExpression: userId ? 'attribute_exists(pk) AND user_id = :u' : 'attribute_exists(pk)',
          ...(userId ? { ExpressionAttributeValues: { ':u': userId } } : {}),
        }),
      ),
    );
  }
}
