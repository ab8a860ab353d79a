import { createAwsCoreDeps } from '../aws/core-deps';
import { lifecycleSweep } from '../core/agent-lifecycle';
import { sweepStaleRuns } from '../runner/sweep';

const deps = createAwsCoreDeps('sweeper');

/**
 * On an EventBridge rate rule: fails runs whose runner died, stops idle agents, and dispatches
 * queued runs an event missed.
 */
export const handler = async (): Promise<{ swept: number; stopped: number }> => {
  const swept = await sweepStaleRuns(deps);
  const { stopped } = await lifecycleSweep(deps);
  return { swept, stopped };
};
