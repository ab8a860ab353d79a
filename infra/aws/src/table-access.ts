import { tableDefinition } from '@reprise/functions/table';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';

const READ = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'];
const WRITE = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

export type TableAccess = 'read' | 'read-write';

/**
 * Partition keys a function may touch: tenant partitions (`T#<tenant>…`, table and every GSI) and
 * the tenant registry (`TENANTS`, how background jobs enumerate tenants without a Scan).
 */
export const LEADING_KEYS = ['T#*', 'TENANTS'];

/**
 * Item access to the table and its indexes, limited by `dynamodb:LeadingKeys`. Every function
 * serves every tenant, so IAM cannot pin one tenant statically; per-tenant isolation inside a
 * function is the key builders' job (keys.ts). Scan is never granted: no access pattern needs it.
 * Transactions are authorised per contained Put/Update/Delete/ConditionCheck action.
 */
export function tableItemAccess(table: ITable, access: TableAccess): PolicyStatement {
  return new PolicyStatement({
    sid: access === 'read' ? 'ReadTenantItems' : 'ReadWriteTenantItems',
    actions: [...READ, ...(access === 'read-write' ? WRITE : [])],
    // Each index by name (no /index/*): a future index needs a deliberate grant.
    resources: [table.tableArn, ...tableDefinition.indexes.map((i) => `${table.tableArn}/index/${i.name}`)],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': LEADING_KEYS } },
  });
}
