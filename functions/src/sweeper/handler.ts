import { createAwsCoreDeps } from '../aws/core-deps';
import { sweepStaleRuns } from '../runner/sweep';

const deps = createAwsCoreDeps('sweeper');

/** On an EventBridge rate rule: fails runs whose runner died. */
export const handler = async (): Promise<{ swept: number }> => ({ swept: await sweepStaleRuns(deps) });
