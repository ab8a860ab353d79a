import type { ExecutionRecord } from '../data/stores/execution-record';
import { isTerminal } from '../data/stores/execution-record';
import type { CoreDeps } from './deps';

/** Re-reads the execution whenever its events move, until it ends or the time is up. */
export async function waitForTerminal(
  deps: CoreDeps,
  e: ExecutionRecord,
  timeoutMs: number,
): Promise<ExecutionRecord> {
  const deadline = deps.clock.now() + timeoutMs;
  let current = e;
  while (!isTerminal(current.status) && deps.clock.now() < deadline) {
    await deps.signal.wait(e.id, Math.min(1000, deadline - deps.clock.now()));
    current = (await deps.stores.executions.getExecution(e.tenant, e.id)) ?? current;
  }
  return current;
}
