/**
 * Key builders for the one table. Every partition key starts with `T#<tenant>` so a request can
 * only ever touch its own tenant's items, and every access pattern is a GetItem or a Query.
 */
const SEQ_WIDTH = 10;
export const pad = (n: number): string => String(n).padStart(SEQ_WIDTH, '0');

const t = (tenant: string) => `T#${tenant}`;

export const keys = {
  tenant: (tenant: string) => ({ pk: t(tenant), sk: 'TENANT' }),
  /** The one partition not led by a tenant: the list of tenants, read only by background jobs. */
  tenantRegistry: (tenant: string) => ({ pk: 'TENANTS', sk: t(tenant) }),
  user: (tenant: string, userId: string) => ({ pk: t(tenant), sk: `U#${userId}` }),
  apiKey: (tenant: string, id: string) => ({ pk: t(tenant), sk: `K#${id}` }),
  agent: (tenant: string, name: string) => ({ pk: t(tenant), sk: `A#${name}` }),
  /** The tenant's count of runs holding a slot (the per-tenant concurrency cap). */
  tenantRunSlots: (tenant: string) => ({ pk: t(tenant), sk: 'RUN_SLOTS' }),

  execution: (tenant: string, id: string) => ({ pk: `${t(tenant)}#E#${id}`, sk: 'E' }),
  event: (tenant: string, id: string, seq: number) => ({ pk: `${t(tenant)}#E#${id}`, sk: `V#${pad(seq)}` }),
  eventRange: (after: number) => ({ from: `V#${pad(after + 1)}`, to: `V#${'9'.repeat(SEQ_WIDTH)}` }),
  continuation: (tenant: string, executionId: string, chatId: string) => ({
    pk: `${t(tenant)}#E#${executionId}`,
    sk: `C#${chatId}`,
  }),
  /** gsi1: executions of an agent, newest first (ULID sort keys). */
  executionsOfAgent: (tenant: string, agent: string) => `${t(tenant)}#A#${agent}#E`,
  /** gsi2: executions of an agent with one status. */
  executionsOfAgentByStatus: (tenant: string, agent: string, status: string) =>
    `${t(tenant)}#A#${agent}#E#${status}`,
  /** gsi3: the resume gate — executions that wrote a session, per agent. */
  sessionOwners: (tenant: string, agent: string, session: string) => `${t(tenant)}#A#${agent}#S#${session}`,

  chat: (tenant: string, id: string) => ({ pk: `${t(tenant)}#C#${id}`, sk: 'C' }),
  chatTurn: (tenant: string, chatId: string, executionId: string) => ({
    pk: `${t(tenant)}#C#${chatId}`,
    sk: `M#${executionId}`,
  }),
  /** gsi1: one user's chats on an agent; gsi2: all chats on an agent (admins). */
  chatsOfUser: (tenant: string, agent: string, userId: string) => `${t(tenant)}#A#${agent}#U#${userId}#C`,
  chatsOfAgent: (tenant: string, agent: string) => `${t(tenant)}#A#${agent}#C`,

  lease: (tenant: string, agent: string, session: string) => ({
    pk: `${t(tenant)}#A#${agent}#S#${session}`,
    sk: 'LEASE',
  }),
  idempotency: (tenant: string, userId: string, keyHash: string) => ({
    pk: `${t(tenant)}#I#${userId}#${keyHash}`,
    sk: 'I',
  }),

  schedule: (tenant: string, id: string) => ({ pk: `${t(tenant)}#SCH#${id}`, sk: 'S' }),
  scheduleRun: (tenant: string, id: string, at: string) => ({ pk: `${t(tenant)}#SCH#${id}`, sk: `R#${at}` }),
  /** gsi1: schedules of an agent. */
  schedulesOfAgent: (tenant: string, agent: string) => `${t(tenant)}#A#${agent}#SCH`,
};
