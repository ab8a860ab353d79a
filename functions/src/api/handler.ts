import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { handle } from 'hono/aws-lambda';
import { createRemoteJWKSet } from 'jose';
import { createAwsCoreDeps } from '../aws/core-deps';
import { readCoreConfig } from '../lib/env';
import { AwsScheduler, readAwsSchedulerConfig } from '../scheduling/aws-scheduler';
import { createApp } from './app';
import { createAuthenticator } from './auth';
import { scheduleRoutes } from './routes/schedules';

const config = readCoreConfig();
const core = createAwsCoreDeps('api');
const auth = createAuthenticator(
  config.auth,
  createRemoteJWKSet(new URL(config.auth.jwksUrl)),
  core.stores.apiKeys,
);

const scheduler = new AwsScheduler(
  new SchedulerClient({ region: config.region }),
  readAwsSchedulerConfig(process.env),
);

/** API Gateway → Hono. Everything is built once per container, at cold start. */
export const handler = handle(
  createApp({ version: config.version, auth, core, extraRoutes: [scheduleRoutes(core, scheduler)] }),
);
