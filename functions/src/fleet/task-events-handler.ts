import { createAwsCoreDeps } from '../aws/core-deps';
import { integer, optional } from '../lib/env';
import { handleTaskStateChange } from './task-events';

const deps = createAwsCoreDeps('task-events');
const options = {
  stage: optional(process.env, 'STAGE', 'dev'),
  fetch,
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  now: Date.now,
  healthWaitMs: integer(process.env, 'AGENT_HEALTH_WAIT_MS', 45_000),
  pollIntervalMs: 1_000,
};

/** Target of the EventBridge rule on ECS "Task State Change" events for the agents cluster. */
export const handler = async (event: unknown): Promise<{ outcome: string }> => ({
  outcome: await handleTaskStateChange(deps, options, event),
});
