import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll } from 'vitest';
import { type ScriptedModel, startScriptedModel } from './scripted-model';

export interface AgentServerProcess {
  url: string;
  token: string;
  home: string;
  workdir: string;
  archiveDir: string;
  pid: number;
  stop(): Promise<void>;
}

export interface AgentServerOptions {
  modelUrl: string;
  home?: string;
  workdir?: string;
  archiveDir?: string;
  token?: string;
  env?: Record<string, string>;
  /** Defaults to the TypeScript entry run through tsx; the bundle test passes `agent-image/dist/server.mjs`. */
  entry?: string;
}

const ROOT = new URL('../../', import.meta.url).pathname;

/** Short temp paths: Claude keys sessions by cwd, and long paths make ugly project folder names. */
const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

const waitForListening = (child: ChildProcess): Promise<number> =>
  new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const parsed = JSON.parse(line) as { msg?: string; port?: number };
        if (parsed.msg === 'listening' && typeof parsed.port === 'number') resolve(parsed.port);
      } catch {
        // Not a JSON line; the server only ever prints JSON, but be lenient.
      }
    });
    child.once('exit', (code) => reject(new Error(`agent server exited with ${code}: ${stderr}`)));
  });

/** Spawns a real agent server process (PORT=0) and resolves once it printed its listening line. */
export const startAgentServerProcess = async (options: AgentServerOptions): Promise<AgentServerProcess> => {
  const created: string[] = [];
  const orTemp = (given: string | undefined, prefix: string) => {
    if (given) return given;
    const dir = tempDir(prefix);
    created.push(dir);
    return dir;
  };
  const home = orTemp(options.home, 'ah-');
  const workdir = orTemp(options.workdir, 'aw-');
  const archiveDir = orTemp(options.archiveDir, 'aa-');
  const token = options.token ?? randomBytes(24).toString('hex');
  const entry = options.entry ?? 'agent-image/src/main.ts';
  const args = entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      PORT: '0',
      AGENT_TOKEN: token,
      AGENT_HOME: home,
      AGENT_WORKDIR: workdir,
      ARCHIVE_DIR: archiveDir,
      ANTHROPIC_BASE_URL: options.modelUrl,
      KILL_GRACE_MS: '1000',
      SHUTDOWN_GRACE_MS: '5000',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await waitForListening(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    home,
    workdir,
    archiveDir,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      // Only the folders this helper made up; folders the caller passed in are theirs to keep.
      for (const dir of created) rmSync(dir, { recursive: true, force: true });
    },
  };
};

/**
 * The usual start of an agent-server file: the scripted model and one agent server talking to it
 * (with `env(modelUrl)` added), handed to `use` once up; both stop after the file.
 */
export function agentServerPerFile(
  use: (server: AgentServerProcess, model: ScriptedModel) => void,
  env: (modelUrl: string) => Record<string, string> = () => ({}),
): void {
  let model: ScriptedModel | undefined;
  let server: AgentServerProcess | undefined;
  beforeAll(async () => {
    model = await startScriptedModel();
    server = await startAgentServerProcess({ modelUrl: model.url, env: env(model.url) });
    use(server, model);
  });
  afterAll(async () => {
    await server?.stop();
    await model?.close();
  });
}
