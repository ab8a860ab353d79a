import { handle } from 'hono/aws-lambda';
import { createRemoteJWKSet } from 'jose';
import { createAwsCoreDeps } from '../aws/core-deps';
import { readCoreConfig } from '../lib/env';
import { createApp } from './app';
import { createAuthenticator } from './auth';

const config = readCoreConfig();
const core = createAwsCoreDeps('api');
const auth = createAuthenticator(
  config.auth,
  createRemoteJWKSet(new URL(config.auth.jwksUrl)),
  core.stores.apiKeys,
);

/** API Gateway → Hono. Everything is built once per container, at cold start. */
export const handler = handle(createApp({ version: config.version, auth, core }));
