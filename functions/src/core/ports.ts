/** Hands an execution to the runner without waiting for it (in-process locally, async Lambda in AWS). */
export interface Dispatcher {
  dispatch(job: { tenant: string; execution_id: string }): Promise<void>;
}

/**
 * Wakes event readers when new events are stored. Locally an in-process emitter makes streaming
 * instant; in AWS readers fall back to polling the table, so `wait` may simply sleep.
 */
export interface EventSignal {
  notify(executionId: string): void;
  wait(executionId: string, timeoutMs: number, abort?: AbortSignal): Promise<void>;
}

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
