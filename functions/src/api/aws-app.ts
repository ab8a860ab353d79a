import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { createRemoteJWKSet } from 'jose';
import { createAwsCoreDeps } from '../aws/core-deps';
import { readCoreConfig } from '../lib/env';
import { AwsScheduler, readAwsSchedulerConfig } from '../scheduling/aws-scheduler';
import { createApp } from './app';
import { createAuthenticator } from './auth';

/** The API as both Lambda entries serve it (buffered and streaming), built once per container. */
export function createAwsApp(service: string, source: Record<string, string | undefined> = process.env) {
  const config = readCoreConfig(source);
  const core = createAwsCoreDeps(service, source);
  const auth = createAuthenticator(
    config.auth,
    createRemoteJWKSet(new URL(config.auth.jwksUrl)),
    core.stores.apiKeys,
  );
  const scheduler = new AwsScheduler(
    new SchedulerClient({ region: config.region }),
    readAwsSchedulerConfig(source),
  );
  return createApp({ version: config.version, auth, core, scheduler, corsOrigin: source.CORS_ORIGIN });
}
