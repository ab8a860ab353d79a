import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { sandboxAvailable, sandboxWanted } from '@reprise/agent-image/sandbox';
import { portInUse } from './ports';
import { SEED_USERS } from './seed-data';
import { startLocalStack } from './stack';
import { buildWebIfStale } from './web-build';

/** `npm start`: the whole local stack, with one-line errors for the usual setup problems. */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8787);
  const dataDir = resolve(process.env.REPRISE_DATA_DIR ?? '.reprise');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`PORT must be a port number, got "${process.env.PORT}"`);
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
  } catch {
    fail(
      'Java is missing: DynamoDB Local needs Java 17 on PATH (e.g. apt-get install -y openjdk-17-jre-headless).',
    );
  }
  // Agents run their CLI confined (bubblewrap); without it they still run, and the user is told.
  if (!sandboxWanted()) process.stderr.write('! no sandbox: AGENT_SANDBOX=none, agents run unconfined\n');
  else if (!sandboxAvailable())
    process.stderr.write(
      '! no sandbox: bubblewrap is not available, agents run unconfined (apt-get install -y bubblewrap)\n',
    );
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK);
  } catch {
    fail(`The data directory ${dataDir} is not writable (set REPRISE_DATA_DIR to another folder).`);
  }
  if (port !== 0 && (await portInUse(port)))
    fail(`Port ${port} is already in use (set PORT to another one).`);

  const step = (s: string) => process.stderr.write(`• ${s}…\n`);
  // A broken web build must not take the API down with it: say so and serve the last build.
  await buildWebIfStale(resolve('web'), step).catch((e: unknown) =>
    process.stderr.write(
      `! the web app did not build (${e instanceof Error ? e.message.split('\n')[0] : e}); serving the last build\n`,
    ),
  );
  const stack = await startLocalStack({
    dataDir,
    port,
    persist: true,
    webDist: resolve('web/dist'),
    onProgress: step,
  });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`\n${signal}: stopping every process…\n`);
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGHUP', () => void shutdown('SIGHUP'));
  // `kill <npm pid>` ends npm's shell but not us: notice being orphaned and stop our children too.
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && void shutdown('parent exited'), 500).unref();

  const logins = SEED_USERS.map((u) => `  ${u.email.padEnd(20)} ${u.role.padEnd(9)} tenant ${u.tenant}`).join(
    '\n',
  );
  await untilReady(stack.url);
  process.stderr.write(`\nReprise is ready at ${stack.url}\nData: ${dataDir}\nSign in as:\n${logins}\n`);
}

/** "ready" means GET /api/ready answers 200: storage and agents can serve runs. */
async function untilReady(url: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const status = await fetch(`${url}/api/ready`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (attempt === 120) fail(`${url}/api/ready did not answer 200 within a minute`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

function fail(message: string): never {
  process.stderr.write(`reprise: ${message}\n`);
  process.exit(1);
}

main().catch((e: unknown) => fail(e instanceof Error ? e.message : String(e)));
