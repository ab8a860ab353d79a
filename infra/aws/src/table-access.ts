import { tableDefinition } from '@reprise/functions/table';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';

const READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

export type TableAccess = 'read' | 'read-write';

/**
 * Item access to the table and its indexes, limited to tenant partitions. Every partition key (of
 * the table and of each GSI) starts with `T#<tenant>`, but every function serves every tenant, so
 * IAM cannot pin one tenant statically: `T#*` is the tightest static condition. Per-tenant
 * isolation inside a function is the key builders' job (keys.ts), enforced by the stores.
 * Transactions are authorised per contained Put/Update/Delete/ConditionCheck action.
 */
export function tableItemAccess(
  table: ITable,
  access: TableAccess,
  extraActions: string[] = [],
): PolicyStatement {
  return new PolicyStatement({
    sid: access === 'read' ? 'ReadTenantItems' : 'ReadWriteTenantItems',
    actions: [...READ, ...(access === 'read-write' ? WRITE : []), ...extraActions],
    // Each index by name (no /index/*): a future index needs a deliberate grant.
    resources: [table.tableArn, ...tableDefinition.indexes.map((i) => `${table.tableArn}/index/${i.name}`)],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['T#*'] } },
  });
}
