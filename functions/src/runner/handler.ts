import { createAwsCoreDeps } from '../aws/core-deps';
import type { DispatchJob } from '../core/ports';
import { runExecution } from './run-execution';

const deps = createAwsCoreDeps('runner');

/** What the dispatchers send over the wire; the in-process-only fields never cross it. */
type WireJob = Omit<DispatchJob, 'execution' | 'agent' | 'runner_claimed'>;

/**
 * Invoked asynchronously (InvocationType Event) by the api and scheduled functions. Only the wire
 * fields are read: a payload claiming the in-process hand-over could otherwise skip the runner
 * claim that keeps a retried invoke from playing a turn twice.
 */
export const handler = async (event: WireJob): Promise<void> => {
  const { tenant, execution_id, claimed, agent_queue, wake, agent_message } = event;
  await runExecution(deps, {
    tenant,
    execution_id,
    ...(claimed ? { claimed } : {}),
    ...(agent_queue ? { agent_queue, wake: wake ?? false } : {}),
    ...(agent_message === undefined ? {} : { agent_message }),
  });
};
