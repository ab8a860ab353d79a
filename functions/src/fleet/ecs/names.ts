import { createHash } from 'node:crypto';
import type { AgentRef } from '../agent-fleet';

/** Names of one agent's AWS resources, all derived from (stage, tenant, agent): no lookup table. */
export interface AgentResourceNames {
  /** Task definition family; underscores separate parts because names contain hyphens. */
  readonly family: string;
  /** RunTask startedBy, the key ListTasks filters on (≤ 128 chars). */
  readonly startedBy: string;
  /** IAM role names are ≤ 64 chars and account-wide, so the role name is a hash; tags say whose. */
  readonly roleName: string;
  readonly secretName: string;
  /** Idempotency token for CreateAccessPoint (≤ 64 chars). */
  readonly accessPointClientToken: string;
  readonly rootDirectory: string;
  readonly archivePrefix: string;
}

// Lower-case DNS-style labels: safe in task families, IAM tags, secret names and S3 keys.
const TENANT = /^[a-z0-9][a-z0-9-]{0,47}$/;
const AGENT = /^[a-z][a-z0-9-]{1,38}$/;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export function agentResourceNames(stage: string, { tenant, agent }: AgentRef): AgentResourceNames {
  if (!TENANT.test(tenant))
    throw new Error(`Tenant id "${tenant}" cannot name AWS resources (want ${TENANT})`);
  if (!AGENT.test(agent)) throw new Error(`Agent name "${agent}" cannot name AWS resources (want ${AGENT})`);
  const family = `reprise_${stage}_${tenant}_${agent}`;
  return {
    family,
    startedBy: `reprise/${stage}/${tenant}/${agent}`,
    roleName: `reprise-${stage}-agent-${sha256(`${tenant}/${agent}`).slice(0, 24)}`,
    secretName: `reprise/${stage}/${tenant}/${agent}/token`,
    accessPointClientToken: sha256(family),
    rootDirectory: `/tenants/${tenant}/agents/${agent}`,
    archivePrefix: `tenants/${tenant}/agents/${agent}/`,
  };
}

/** The agent a task belongs to, read back from the `startedBy` above; null for any other task. */
export function agentOfStartedBy(stage: string, startedBy: string | undefined): AgentRef | null {
  const parts = (startedBy ?? '').split('/');
  if (parts.length !== 4 || parts[0] !== 'reprise' || parts[1] !== stage) return null;
  return { tenant: parts[2]!, agent: parts[3]! };
}

export const agentTags = (stage: string, { tenant, agent }: AgentRef) => [
  { key: 'reprise:stage', value: stage },
  { key: 'reprise:tenant', value: tenant },
  { key: 'reprise:agent', value: agent },
];
