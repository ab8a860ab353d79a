import { mkdirSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { createLogger } from '@reprise/functions/lib/log';
import { createAgentServer } from './app';
import type { TranscriptArchive } from './archive/archive';
import { createDirArchive } from './archive/dir';
import { type ArchiveConfig, loadConfig } from './config';
import { runtimeFor } from './runtime-select';
import { createFileLedger } from './session-ledger';
import { TaskRegistry } from './task-registry';
import { ensureClaudeSettings } from './transcripts';
import { WarmPool } from './warm-pool';
import { withWarmPool } from './warm-runtime';

const config = loadConfig();
const logger = createLogger({ service: 'agent-server' });

/** The AWS SDK is only loaded when S3 is used: local agents start faster without it. */
const archiveFor = async (archive: ArchiveConfig): Promise<TranscriptArchive> => {
  if (archive.kind === 'dir') return createDirArchive(archive.dir);
  const [{ S3Client }, { createS3Archive }] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('./archive/s3'),
  ]);
  return createS3Archive(new S3Client({}), archive.bucket, archive.prefix);
};

mkdirSync(config.workdir, { recursive: true });
mkdirSync(config.home, { recursive: true });
await ensureClaudeSettings(config.home);

const registry = new TaskRegistry();
const warm = new WarmPool({ size: config.warmPoolSize, idleMs: config.warmIdleSeconds * 1000, logger });
const app = createAgentServer({
  token: config.token,
  registry,
  warm,
  logger,
  archive: await archiveFor(config.archive),
  ledger: createFileLedger(config.home),
  runtime: withWarmPool(runtimeFor(config), warm),
});

const server = serve({ fetch: app.fetch, port: config.port, hostname: '0.0.0.0' }, (info) => {
  // The local fleet reads this exact line to learn an ephemeral port.
  process.stdout.write(`${JSON.stringify({ msg: 'listening', port: info.port })}\n`);
});

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info('shutdown', { signal, running: registry.size, warm: warm.list().length });
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  const force = setTimeout(() => process.exit(1), config.shutdownGraceMs + config.killGraceMs);
  force.unref();
  await registry.cancelAll();
  // Idle warm processes have their own process groups: stop them, or they would outlive us.
  await warm.close();
  // Let the cancelled turns' final `result` lines reach their clients before exiting.
  await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, 2_000))]);
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
