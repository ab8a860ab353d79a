import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { serve } from '@hono/node-server';
import { createApp } from '@reprise/functions/api/app';
import { createAuthenticator } from '@reprise/functions/api/auth';
import { createDb } from '@reprise/functions/data/client';
import { ApiKeyStore } from '@reprise/functions/data/stores/api-keys';
import { createLogger, type Logger } from '@reprise/functions/lib/log';
import { createRemoteJWKSet } from 'jose';
import { createDevIdp } from './dev-idp';
import { startDynamoLocal } from './dynamodb';
import { seedIdentities } from './seed';
import { SEED_USERS } from './seed-data';
import { staticSite } from './static-site';
import { ensureTable } from './table-bootstrap';

export interface LocalStackOptions {
  readonly dataDir: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  /** Keep DynamoDB data on disk under dataDir (npm start) or in memory (tests). */
  readonly persist: boolean;
  readonly webDist: string;
  readonly logger?: Logger;
  readonly onProgress?: (step: string) => void;
}

export interface LocalStack {
  readonly url: string;
  readonly dynamoEndpoint: string;
  readonly tableName: string;
  stop(): Promise<void>;
}

const TABLE_NAME = 'reprise-local';
const AUDIENCE = 'reprise-local';

/**
 * The whole platform on one machine: every cloud part replaced by a real local stand-in behind
 * the same interfaces. `npm start` and the end-to-end tests both use this.
 */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const progress = options.onProgress ?? (() => {});
  const logger = options.logger ?? createLogger({ service: 'reprise-local' });
  const cleanups: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  };
  try {
    await mkdir(options.dataDir, { recursive: true });
    progress('starting DynamoDB Local');
    const dynamo = await startDynamoLocal(
      options.persist ? { dataDir: await ensureDir(join(options.dataDir, 'dynamodb')) } : {},
    );
    cleanups.push(dynamo.stop);

    progress('preparing the table');
    const raw = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await ensureTable(raw, TABLE_NAME);
    raw.destroy();
    const db = createDb({ tableName: TABLE_NAME, region: 'us-east-1', endpoint: dynamo.endpoint });
    cleanups.push(async () => db.doc.destroy());
    await seedIdentities(db);

    progress('starting the API');
    let handler: (req: Request) => Response | Promise<Response> = () =>
      new Response('starting', { status: 503 });
    const server = serve({ fetch: (req) => handler(req), port: options.port, hostname: '127.0.0.1' });
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
    const port = (server.address() as AddressInfo).port;
    const url = `http://localhost:${port}`;

    const idp = await createDevIdp({
      keyDir: join(options.dataDir, 'keys'),
      issuer: `${url}/auth/dev`,
      audience: AUDIENCE,
      users: SEED_USERS,
    });
    const auth = createAuthenticator(
      { issuer: idp.issuer, audience: idp.audience, jwksUrl: `${url}${idp.jwksPath}` },
      createRemoteJWKSet(new URL(`${url}${idp.jwksPath}`)),
      new ApiKeyStore(db),
    );
    const app = createApp({ version: '0.1.0', auth, logger });
    app.route('/auth/dev', idp.routes());
    app.route('/', staticSite(options.webDist));
    handler = app.fetch;
    return { url, dynamoEndpoint: dynamo.endpoint, tableName: TABLE_NAME, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

async function ensureDir(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return dir;
}
