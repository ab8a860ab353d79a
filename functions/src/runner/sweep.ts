import type { CoreDeps } from '../core/deps';
import type { ExecutionRecord } from '../data/stores/execution-record';
import { endRun } from './end-run';

export type SweepDeps = Pick<CoreDeps, 'stores' | 'signal' | 'clock' | 'logger'>;

/** A run may overrun its timeout by this much (CLI kill grace, result write) before it counts as lost. */
export const SWEEP_GRACE_MS = 120_000;

/**
 * Fails executions stuck `running` (or `queued`) past their timeout plus a grace period — their
 * runner died — with error `lost`, writes the terminal event so followers stop waiting, and frees
 * their session leases. Returns how many it swept.
 */
export async function sweepStaleRuns(deps: SweepDeps): Promise<number> {
  let swept = 0;
  for (const tenant of await deps.stores.users.listTenants()) {
    for (const agent of await deps.stores.agents.listAgentsByTenant(tenant)) {
      for (const status of ['running', 'queued'] as const) {
        const page = await deps.stores.executions.listExecutionsByAgent(tenant, agent.name, {
          limit: 100,
          status,
        });
        for (const e of page.items.filter((x) => isStale(x, deps.clock.now()))) {
          if (await sweepOne(deps, e)) swept++;
        }
      }
    }
  }
  return swept;
}

const isStale = (e: ExecutionRecord, now: number) =>
  Date.parse(e.started_at ?? e.created_at) + e.timeout_seconds * 1000 + SWEEP_GRACE_MS < now;

async function sweepOne(deps: SweepDeps, e: ExecutionRecord): Promise<boolean> {
  return endRun(deps, e, 'lost', 'The run stopped reporting (its runner or agent died); marked lost');
}
