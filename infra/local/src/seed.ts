import { startAgent } from '@reprise/functions/core/agent-lifecycle';
import type { CoreDeps } from '@reprise/functions/core/deps';
import type { Identity } from '@reprise/functions/core/identity';
import { submitTask } from '@reprise/functions/core/tasks';
import { waitForTerminal } from '@reprise/functions/core/wait';
import type { Db } from '@reprise/functions/data/client';
import { UserStore } from '@reprise/functions/data/stores/users';
import { SEED_AGENT, SEED_TENANTS, SEED_USERS } from './seed-data';

/** Idempotent: a second start rewrites the same tenants and users and keeps everything else. */
export async function seedIdentities(db: Db): Promise<void> {
  const users = new UserStore(db);
  for (const tenant of SEED_TENANTS) await users.putTenant(tenant);
  for (const user of SEED_USERS) await users.putUser(user);
}

/**
 * The demo agent exists, runs, and (on a fresh data dir) has one failed execution to continue:
 * a command that fails, cut off by max_turns before the agent could recover.
 */
export async function seedDemoAgent(core: CoreDeps, withFailedRun: boolean): Promise<void> {
  const owner = SEED_USERS.find((u) => u.email === SEED_AGENT.owner)!;
  const ref = { tenant: SEED_AGENT.tenant, agent: SEED_AGENT.name };
  if (!(await core.stores.agents.getAgent(ref.tenant, ref.agent))) {
    await core.stores.agents.createAgent({
      tenant: ref.tenant,
      name: ref.agent,
      runtime: 'claude',
      owner_user_id: owner.user_id,
      owner_email: owner.email,
      shared_with: SEED_AGENT.shared_with,
      created_at: new Date(core.clock.now()).toISOString(),
    });
  }
  await core.fleet.create(ref);
  const agent = await core.stores.agents.getAgent(ref.tenant, ref.agent);
  // Through the lifecycle, so the agent item knows it runs; a failed start leaves it `failed` with
  // the reason (and runs wake it again) instead of stopping the whole stack.
  if (agent) await startAgent(core, agent);
  if (!withFailedRun) return;
  const existing = await core.stores.executions.listExecutionsByAgent(ref.tenant, ref.agent, { limit: 1 });
  if (existing.items.length > 0) return;
  const bob: Identity = { ...owner, via: 'jwt' };
  const { execution } = await submitTask(core, bob, ref.agent, {
    message: 'run: ls /nonexistent',
    max_turns: 1,
  });
  await waitForTerminal(core, execution, 60_000);
}
