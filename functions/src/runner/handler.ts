import { createAwsCoreDeps } from '../aws/core-deps';
import type { DispatchJob } from '../core/ports';
import { runExecution } from './run-execution';

const deps = createAwsCoreDeps('runner');

/** Invoked asynchronously (InvocationType Event) by the api and scheduled functions. */
export const handler = async (event: Omit<DispatchJob, 'execution'>): Promise<void> => {
  await runExecution(deps, event);
};
