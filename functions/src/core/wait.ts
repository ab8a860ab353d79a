import type { ExecutionRecord } from '../data/stores/execution-record';
import { isTerminal } from '../data/stores/execution-record';
import type { ExecutionDetail } from '../data/stores/executions';
import type { CoreDeps } from './deps';
import { finishedKey } from './ports';

/**
 * Re-reads the execution when the runner says it finished (or every second as a fallback, e.g. a
 * cancel from another process), until it ends or the time is up. Event traffic does not wake it.
 */
export async function waitForTerminal(
  deps: CoreDeps,
  e: ExecutionRecord,
  timeoutMs: number,
): Promise<ExecutionDetail> {
  const start = deps.clock.now();
  const deadline = start + timeoutMs;
  let current: ExecutionDetail = { execution: e, continuations: [] };
  while (!isTerminal(current.execution.status) && deps.clock.now() < deadline) {
    const now = deps.clock.now();
    await deps.signal.wait(finishedKey(e.id), Math.min(1000, deadline - now), { waitedMs: now - start });
    current = (await deps.stores.executions.getExecutionWithContinuations(e.tenant, e.id)) ?? current;
  }
  return current;
}
