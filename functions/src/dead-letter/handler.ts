import { createAwsCoreDeps } from '../aws/core-deps';
import { endDeadLetteredRun } from '../runner/dead-letter';

const deps = createAwsCoreDeps('dead-letter');

/** SQS consumer of the runner's on-failure destination; a throw returns the batch to the queue. */
export const handler = async (event: { Records: { body: string }[] }): Promise<{ ended: number }> => {
  let ended = 0;
  for (const record of event.Records) if (await endDeadLetteredRun(deps, record.body)) ended++;
  return { ended };
};
