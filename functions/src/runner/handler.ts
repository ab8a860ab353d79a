import { createAwsCoreDeps } from '../aws/core-deps';
import { runExecution } from './run-execution';

const deps = createAwsCoreDeps('runner');

/** Invoked asynchronously (InvocationType Event) by the api and scheduled functions. */
export const handler = async (event: { tenant: string; execution_id: string }): Promise<void> => {
  await runExecution(deps, event);
};
