import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { serve } from '@hono/node-server';
import { createApp } from '@reprise/functions/api/app';
import { createAuthenticator } from '@reprise/functions/api/auth';
import { lifecycleSweep } from '@reprise/functions/core/agent-lifecycle';
import type { Clock } from '@reprise/functions/core/ports';
import { createDb, type Db } from '@reprise/functions/data/client';
import { createLogger, type Logger } from '@reprise/functions/lib/log';
import { interruptUnfinishedRuns } from '@reprise/functions/runner/end-run';
import { sweepStaleRuns } from '@reprise/functions/runner/sweep';
import { createLocalCron, type LocalCron, loadSchedules } from '@reprise/functions/scheduling/local-cron';
import { createRemoteJWKSet } from 'jose';
import { answerClientErrors } from './client-errors';
import { createDevIdp } from './dev-idp';
import { startDynamoLocal } from './dynamodb';
import { createLocalPlatform, type LocalPlatform } from './platform';
import { startScriptedModel } from './scripted-model/index';
import { seedDemoAgent, seedIdentities } from './seed';
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
  /** Give the demo agent a failed run to continue (npm start); tests that count runs turn it off. */
  readonly seedFailedRun?: boolean;
  /** Use an already running DynamoDB Local (tests share one) and this table in it. */
  readonly dynamoEndpoint?: string;
  readonly tableName?: string;
  /** How often the idle check / queue backstop runs (default 10 s, so agents sleep within timeout + 30 s). */
  readonly lifecycleIntervalMs?: number;
  /** Replaces the agent server command (tests of a failing start). */
  readonly agentCommand?: readonly string[];
  /** The platform's clock (tests move it on instead of waiting for an idle timeout to pass). */
  readonly clock?: Clock;
}

export interface LocalStack {
  readonly url: string;
  readonly dynamoEndpoint: string;
  readonly tableName: string;
  readonly platform: LocalPlatform;
  /** The local cron; tests call `tick(now)` instead of waiting for a minute to pass. */
  readonly scheduler: LocalCron;
  readonly db: Db;
  /** The scripted model's URL (the agents talk to it unless ANTHROPIC_API_KEY is set). */
  readonly modelUrl: string;
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
    const dynamo = options.dynamoEndpoint
      ? { endpoint: options.dynamoEndpoint }
      : await startDynamoLocal(
          options.persist ? { dataDir: await ensureDir(join(options.dataDir, 'dynamodb')) } : {},
        );
    if ('stop' in dynamo) cleanups.push(dynamo.stop);
    const tableName = options.tableName ?? TABLE_NAME;

    progress('preparing the table');
    const raw = new DynamoDBClient({
      endpoint: dynamo.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await ensureTable(raw, tableName);
    raw.destroy();
    const db = createDb({ tableName, region: 'us-east-1', endpoint: dynamo.endpoint });
    cleanups.push(async () => db.doc.destroy());
    await seedIdentities(db);

    progress('starting the scripted model');
    const model = await startScriptedModel({});
    cleanups.push(() => model.close());

    progress('starting the API');
    let handler: (req: Request) => Response | Promise<Response> = () =>
      new Response('starting', { status: 503 });
    const server = serve({ fetch: (req) => handler(req), port: options.port, hostname: '127.0.0.1' });
    answerClientErrors(server as Server);
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
    const platform = createLocalPlatform({
      db,
      dataDir: options.dataDir,
      modelUrl: model.url,
      logger,
      ...(options.agentCommand ? { agentCommand: options.agentCommand } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    cleanups.push(() => platform.close());
    // This process owns every run in its table: what the last one left unfinished ends now, not
    // when the sweeper's timeout passes.
    await interruptUnfinishedRuns(platform.core, 'The platform stopped before this run finished');
    // On stop, before the agents and storage go: no new requests, and every run still in flight
    // ends `interrupted` with its lease freed, so a restart finds nothing running or busy.
    cleanups.push(async () => {
      handler = () => new Response('stopping', { status: 503 });
      await interruptUnfinishedRuns(platform.core, 'The platform stopped while this run was in flight');
    });
    const auth = createAuthenticator(
      { issuer: idp.issuer, audience: idp.audience, jwksUrl: `${url}${idp.jwksPath}` },
      createRemoteJWKSet(new URL(`${url}${idp.jwksPath}`)),
      platform.core.stores.apiKeys,
    );
    // The local stand-in for EventBridge Scheduler: the same fire path as the scheduled Lambda.
    const scheduler = createLocalCron(platform.core);
    await loadSchedules(platform.core, scheduler);
    scheduler.start();
    cleanups.push(async () => scheduler.stop());
    let agentsReady = false;
    const app = createApp({
      version: '0.1.0',
      auth,
      core: platform.core,
      scheduler,
      // Runs can be served once the agents that should be running have been started.
      readiness: {
        agents: async () => {
          if (!agentsReady) throw new Error('agents are starting');
        },
      },
    });
    app.route('/auth/dev', idp.routes());
    app.route('/', staticSite(options.webDist));
    handler = app.fetch;

    // The local stand-in for the scheduled sweeper Lambda.
    const sweeper = setInterval(() => {
      sweepStaleRuns(platform.core).catch((e: unknown) => logger.error('sweep failed', { error: String(e) }));
    }, 60_000);
    cleanups.push(async () => clearInterval(sweeper));
    // The local stand-in for the lifecycle rate rule: idle agents sleep, missed queues dispatch.
    let sweeping = false;
    const lifecycle = setInterval(() => {
      if (sweeping) return;
      sweeping = true;
      lifecycleSweep(platform.core)
        .catch((e: unknown) => logger.error('lifecycle sweep failed', { error: String(e) }))
        .finally(() => {
          sweeping = false;
        });
    }, options.lifecycleIntervalMs ?? 10_000);
    cleanups.push(async () => clearInterval(lifecycle));

    progress('starting agent demo');
    await seedDemoAgent(platform.core, options.seedFailedRun ?? true);
    agentsReady = true;
    return {
      url,
      dynamoEndpoint: dynamo.endpoint,
      tableName,
      platform,
      scheduler,
      db,
      modelUrl: model.url,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

async function ensureDir(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return dir;
}
