import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import type { Dispatcher, DispatchJob } from '../core/ports';
import type { Logger } from '../lib/log';

/** Local stand-in for an async Lambda invoke: runs in this process, never awaited by the request. */
export function inProcessDispatcher(run: (job: DispatchJob) => Promise<void>, logger: Logger) {
  const running = new Set<Promise<void>>();
  const dispatcher: Dispatcher & { drain(): Promise<void> } = {
    deliversOnce: true,
    async dispatch(job) {
      const p: Promise<void> = Promise.resolve()
        .then(() => run(job))
        .catch((e: unknown) =>
          logger.error('runner crashed', { execution_id: job.execution_id, error: String(e).slice(0, 300) }),
        )
        .finally(() => running.delete(p));
      running.add(p);
    },
    /** Until nothing runs: a finishing run may dispatch the next queued one. */
    async drain() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
  return dispatcher;
}

/** What crosses the wire to a runner Lambda; the in-process-only fields never do. */
export type WireJob = Omit<DispatchJob, 'execution' | 'agent' | 'runner_claimed'>;

/**
 * The wire fields of a job, and nothing else: the dispatcher sends this, the runner's handler
 * reads only this (a payload claiming the in-process hand-over must not skip the runner claim).
 */
export const wireJob = (job: WireJob): WireJob => ({
  tenant: job.tenant,
  execution_id: job.execution_id,
  ...(job.claimed ? { claimed: true } : {}),
  ...(job.agent_queue ? { agent_queue: job.agent_queue, wake: job.wake ?? false } : {}),
  ...(job.agent_message === undefined ? {} : { agent_message: job.agent_message }),
});

/** In AWS: `InvocationType: Event` returns as soon as Lambda has queued the job. */
export function lambdaDispatcher(lambda: LambdaClient, functionName: string): Dispatcher {
  return {
    async dispatch(job) {
      await lambda.send(
        new InvokeCommand({
          FunctionName: functionName,
          InvocationType: 'Event',
          Payload: new TextEncoder().encode(JSON.stringify(wireJob(job))),
        }),
      );
    },
  };
}
