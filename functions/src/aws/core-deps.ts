import { LambdaClient } from '@aws-sdk/client-lambda';
import { lifecycleConfigFromEnv } from '../core/agent-lifecycle';
import type { CoreDeps } from '../core/deps';
import { pollingEventSignal } from '../core/event-signals';
import { systemClock } from '../core/ports';
import { createDb } from '../data/client';
import { createStores } from '../data/create-stores';
import { s3PayloadStore } from '../data/payloads/s3';
import { AgentClient } from '../fleet/agent-client';
import { RemoteAgentFleet } from '../fleet/remote';
import { optional, required } from '../lib/env';
import { createLogger } from '../lib/log';
import { lambdaDispatcher } from '../runner/dispatchers';

type Source = Record<string, string | undefined>;

/**
 * The composition root for the api, runner, scheduled and sweeper functions: one client per AWS
 * service, created once at cold start. Agents are reached through the fleet function.
 */
export function createAwsCoreDeps(service: string, source: Source = process.env): CoreDeps {
  const region = required(source, 'AWS_REGION');
  const lambda = new LambdaClient({ region });
  const runnerName = optional(source, 'RUNNER_FUNCTION_NAME', '');
  const db = createDb({ tableName: required(source, 'TABLE_NAME'), region });
  return {
    stores: createStores(
      db,
      s3PayloadStore({
        bucket: required(source, 'PAYLOAD_BUCKET'),
        region,
        // The DynamoDB client's provider: one credential chain per process.
        credentials: db.doc.config.credentials,
      }),
    ),
    fleet: new RemoteAgentFleet(lambda, required(source, 'FLEET_FUNCTION_NAME')),
    agentClient: new AgentClient(),
    dispatcher: runnerName
      ? lambdaDispatcher(lambda, runnerName)
      : {
          dispatch: async () => {
            throw new Error('RUNNER_FUNCTION_NAME is not set for this function');
          },
        },
    signal: pollingEventSignal(),
    clock: systemClock,
    logger: createLogger({ service, stage: optional(source, 'STAGE', 'dev') }),
    lifecycle: lifecycleConfigFromEnv(source),
  };
}
