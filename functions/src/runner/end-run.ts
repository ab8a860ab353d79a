import type { CoreDeps } from '../core/deps';
import { finishedKey } from '../core/ports';
import type { ExecutionRecord } from '../data/stores/execution-record';
import type { RunErrorCode } from '../lib/agent-events';
import { EventWriter } from './event-writer';
import { failureResult, outcomeFromResult } from './outcome';

export type EndRunDeps = Pick<CoreDeps, 'stores' | 'signal' | 'clock' | 'logger'>;

/**
 * Ends a run whose runner can no longer finish it (it died, timed out, or the platform stops):
 * a terminal `failed` status with the reason, the terminal event so followers stop waiting, and
 * its session lease freed. A run that is already terminal is left as it is. True if it ended it.
 */
export async function endRun(
  deps: EndRunDeps,
  e: ExecutionRecord,
  code: RunErrorCode,
  message: string,
): Promise<boolean> {
  const now = deps.clock.now();
  const result = failureResult(e, code, message, now);
  const finished = await deps.stores.executions.finishExecution(
    e,
    outcomeFromResult(result, new Date(now).toISOString()),
  );
  if (!finished) return false;
  const last = await deps.stores.events.lastEvent(e.tenant, e.id);
  const writer = new EventWriter(
    deps.stores.events,
    deps.signal,
    e.tenant,
    e.id,
    deps.logger,
    () => deps.clock.now(),
    last?.seq ?? 0,
  );
  writer.push(result);
  await writer.flush();
  if (e.lease_session_id) await deps.stores.leases.releaseLease(e.tenant, e.agent, e.lease_session_id, e.id);
  deps.signal.notify(e.id);
  deps.signal.notify(finishedKey(e.id));
  deps.logger.warn('ended a run', { tenant: e.tenant, execution_id: e.id, code });
  return true;
}

/** Every run not yet terminal in the table (queued or running), across tenants and agents. */
export async function* unfinishedRuns(deps: Pick<CoreDeps, 'stores'>): AsyncGenerator<ExecutionRecord> {
  for (const tenant of await deps.stores.users.listTenants()) {
    for (const agent of await deps.stores.agents.listAgentsByTenant(tenant)) {
      for (const status of ['running', 'queued'] as const) {
        let cursor: string | undefined;
        do {
          const page = await deps.stores.executions.listExecutionsByAgent(tenant, agent.name, {
            limit: 100,
            status,
            ...(cursor ? { cursor } : {}),
          });
          yield* page.items;
          cursor = page.cursor ?? undefined;
        } while (cursor);
      }
    }
  }
}

/**
 * The local platform owns every run in its table: on shutdown the runs still in flight, on
 * start-up the ones the previous process never finished. Ends them all as `interrupted`.
 */
export async function interruptUnfinishedRuns(deps: EndRunDeps, message: string): Promise<number> {
  let ended = 0;
  for await (const e of unfinishedRuns(deps)) if (await endRun(deps, e, 'interrupted', message)) ended++;
  return ended;
}
