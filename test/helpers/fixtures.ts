import type { RunOutcome } from '@reprise/agent-image/runtime';
import type { Identity } from '@reprise/functions/core/identity';

/** Bob, an operator of tenant acme, as the seed data has him. */
export const bob: Identity = {
  user_id: 'usr-bob',
  email: 'bob@acme.test',
  tenant: 'acme',
  role: 'operator',
  via: 'jwt',
};

/** What a runtime reports for a turn that went well. */
export const successOutcome = (sessionId: string, response = 'ok'): RunOutcome => ({
  status: 'success',
  sessionId,
  response,
  error: null,
  costUsd: null,
  contextUsed: null,
  contextMax: null,
  numTurns: 1,
  toolCalls: [],
});

/** A new claude agent owned by `owner`, as the API would create it. */
export const newAgent = (owner: Identity, name: string) => ({
  tenant: owner.tenant,
  name,
  runtime: 'claude' as const,
  owner_user_id: owner.user_id,
  owner_email: owner.email,
  shared_with: [],
  created_at: new Date().toISOString(),
});
