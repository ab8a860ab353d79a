import { startAgent } from '@reprise/functions/core/agent-lifecycle';
import type { CoreDeps } from '@reprise/functions/core/deps';
import type { Identity } from '@reprise/functions/core/identity';
import { submitTask } from '@reprise/functions/core/tasks';
import { waitForTerminal } from '@reprise/functions/core/wait';
import type { Db } from '@reprise/functions/data/client';
import { UserStore } from '@reprise/functions/data/stores/users';
import { SEED_AGENTS, SEED_TENANTS, SEED_USERS, type SeedAgent } from './seed-data';

/** Idempotent: a second start rewrites the same tenants and users and keeps everything else. */
export async function seedIdentities(db: Db): Promise<void> {
  const users = new UserStore(db);
  for (const tenant of SEED_TENANTS) await users.putTenant(tenant);
  for (const user of SEED_USERS) await users.putUser(user);
}

/**
 * The demo agents (claude `demo`, `codex`, `gemini`) exist, run, and (on a fresh data dir) each
 * has one failed execution to continue: a command that fails, then the run fails before the
 * agent could recover.
 */
export async function seedDemoAgent(core: CoreDeps, withFailedRun: boolean): Promise<void> {
  await Promise.all(SEED_AGENTS.map((agent) => seedAgent(core, agent, withFailedRun)));
}

async function seedAgent(core: CoreDeps, agent: SeedAgent, withFailedRun: boolean): Promise<void> {
  const owner = SEED_USERS.find((u) => u.email === agent.owner)!;
  const ref = { tenant: agent.tenant, agent: agent.name, runtime: agent.runtime };
  if (!(await core.stores.agents.getAgent(ref.tenant, ref.agent))) {
    await core.stores.agents.createAgent({
      tenant: ref.tenant,
      name: ref.agent,
      runtime: agent.runtime,
      owner_user_id: owner.user_id,
      owner_email: owner.email,
      shared_with: agent.shared_with,
      created_at: new Date(core.clock.now()).toISOString(),
    });
  }
  await core.fleet.create(ref);
  const stored = await core.stores.agents.getAgent(ref.tenant, ref.agent);
  // Through the lifecycle, so the agent item knows it runs; a failed start leaves it `failed` with
  // the reason (and runs wake it again) instead of stopping the whole stack.
  if (stored) await startAgent(core, stored);
  if (!withFailedRun) return;
  const existing = await core.stores.executions.listExecutionsByAgent(ref.tenant, ref.agent, { limit: 1 });
  if (existing.items.length > 0) return;
  const bob: Identity = { ...owner, via: 'jwt' };
  const { execution } = await submitTask(core, bob, ref.agent, agent.failedRun);
  await waitForTerminal(core, execution, 60_000);
}
