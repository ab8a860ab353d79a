import { ECSClient } from '@aws-sdk/client-ecs';
import { EFSClient } from '@aws-sdk/client-efs';
import { IAMClient } from '@aws-sdk/client-iam';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { EcsAgentFleet, readEcsFleetConfig } from './ecs';
import { serveFleetRequest } from './remote';

const config = readEcsFleetConfig();
const fleet = new EcsAgentFleet(
  {
    ecs: new ECSClient({ region: config.region }),
    efs: new EFSClient({ region: config.region }),
    secrets: new SecretsManagerClient({ region: config.region }),
    iam: new IAMClient({ region: config.region }),
  },
  config,
);

/** Invoked synchronously by the api and runner functions through RemoteAgentFleet. */
export const handler = (event: unknown) => serveFleetRequest(fleet, event);
