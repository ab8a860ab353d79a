import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Role } from '../../lib/schemas/common';
import type { Db } from '../client';
import { keys } from '../keys';

export interface User {
  readonly tenant: string;
  readonly user_id: string;
  readonly email: string;
  readonly role: Role;
}

export interface Tenant {
  readonly tenant: string;
  readonly name: string;
}

/** Tenants and their users. Identity comes from tokens; these records back seeding and display. */
export class UserStore {
  constructor(private readonly db: Db) {}

  async putTenant(tenant: Tenant): Promise<void> {
    await this.db.doc.send(
      new PutCommand({
        TableName: this.db.table,
        Item: { ...keys.tenant(tenant.tenant), type: 'tenant', ...tenant },
      }),
    );
    await this.db.doc.send(
      new PutCommand({ TableName: this.db.table, Item: { ...keys.tenantRegistry(tenant.tenant) } }),
    );
  }

  /** Background jobs only (the stale-run sweeper); no request path lists tenants. */
  async listTenants(): Promise<string[]> {
    const out = await this.db.doc.send(
      new QueryCommand({
        TableName: this.db.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.tenantRegistry('').pk },
      }),
    );
    return (out.Items ?? []).map((i) => String(i.sk).slice(2));
  }

  async putUser(user: User): Promise<void> {
    await this.db.doc.send(
      new PutCommand({
        TableName: this.db.table,
        Item: { ...keys.user(user.tenant, user.user_id), type: 'user', ...user },
      }),
    );
  }

  async getUser(tenant: string, userId: string): Promise<User | null> {
    const out = await this.db.doc.send(
      new GetCommand({ TableName: this.db.table, Key: keys.user(tenant, userId) }),
    );
    if (!out.Item) return null;
    const { user_id, email, role } = out.Item as User;
    return { tenant, user_id, email, role };
  }

  /** The members of one tenant: one Query on the tenant's partition (`U#` items), never a Scan. */
  async listUsers(tenant: string): Promise<User[]> {
    const out: User[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.db.doc.send(
        new QueryCommand({
          TableName: this.db.table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :u)',
          ExpressionAttributeValues: { ':pk': keys.tenant(tenant).pk, ':u': 'U#' },
          ExclusiveStartKey: start,
        }),
      );
      for (const i of page.Items ?? []) {
        const { user_id, email, role } = i as User;
        out.push({ tenant, user_id, email, role });
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return out;
  }
}
