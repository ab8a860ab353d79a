import { ECSClient } from '@aws-sdk/client-ecs';
import { EFSClient } from '@aws-sdk/client-efs';
import { IAMClient } from '@aws-sdk/client-iam';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { CoreDeps } from '../core/deps';
import { pollingEventSignal } from '../core/event-signals';
import { systemClock } from '../core/ports';
import { createDb } from '../data/client';
import { createStores } from '../data/create-stores';
import { AgentClient } from '../fleet/agent-client';
import { EcsAgentFleet, readEcsFleetConfig } from '../fleet/ecs';
import { optional, required } from '../lib/env';
import { createLogger } from '../lib/log';
import { lambdaDispatcher } from '../runner/dispatchers';

type Source = Record<string, string | undefined>;

/**
 * The composition root for every Lambda: one client per AWS service, created once at cold start
 * and shared by all invocations of the container.
 */
export function createAwsCoreDeps(service: string, source: Source = process.env): CoreDeps {
  const region = required(source, 'AWS_REGION');
  const fleetConfig = readEcsFleetConfig(source);
  const db = createDb({ tableName: required(source, 'TABLE_NAME'), region });
  const fleet = new EcsAgentFleet(
    {
      ecs: new ECSClient({ region }),
      efs: new EFSClient({ region }),
      secrets: new SecretsManagerClient({ region }),
      iam: new IAMClient({ region }),
    },
    fleetConfig,
  );
  const runnerName = optional(source, 'RUNNER_FUNCTION_NAME', '');
  return {
    stores: createStores(db),
    fleet,
    agentClient: new AgentClient(),
    dispatcher: runnerName
      ? lambdaDispatcher(new LambdaClient({ region }), runnerName)
      : {
          dispatch: async () => {
            throw new Error('RUNNER_FUNCTION_NAME is not set for this function');
          },
        },
    signal: pollingEventSignal(),
    clock: systemClock,
    logger: createLogger({ service, stage: fleetConfig.stage }),
  };
}
