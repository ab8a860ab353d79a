import { createAwsCoreDeps } from '../aws/core-deps';
import { type WireJob, wireJob } from './dispatchers';
import { runExecution } from './run-execution';

const deps = createAwsCoreDeps('runner');

/** Invoked asynchronously (InvocationType Event) by the api and scheduled functions. */
export const handler = async (event: WireJob): Promise<void> => {
  await runExecution(deps, wireJob(event));
};
