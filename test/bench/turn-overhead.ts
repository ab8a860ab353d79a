import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { claudeEnv } from '@reprise/agent-image/claude';
import { buildClaudeArgs } from '@reprise/agent-image/claude-args';
import { median } from './stats';

const claudeBin = join(
  dirname(createRequire(import.meta.url).resolve('@anthropic-ai/claude-code/package.json')),
  'bin',
  'claude.exe',
);

/** The same turn with nothing around it: the CLI alone, same HOME, cwd and model server. */
function bareTurn(home: string, modelUrl: string, message: string): Promise<number> {
  const start = performance.now();
  const child = spawn(
    claudeBin,
    buildClaudeArgs({ prompt: message, sessionId: randomUUID(), resume: false, forkSession: false }),
    {
      cwd: join(home, 'w'),
      env: claudeEnv({
        bin: claudeBin,
        home,
        workdir: join(home, 'w'),
        baseUrl: modelUrl,
        killGraceMs: 1000,
        isRoot: process.getuid?.() === 0,
      }),
      stdio: ['pipe', 'pipe', 'ignore'],
    },
  );
  child.stdin.end(message);
  child.stdout.resume();
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(performance.now() - start) : reject(new Error(`claude exited ${code}`)),
    );
  });
}

async function platformTurn(url: string, token: string, message: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${url}/api/agents/demo/task?wait=25`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ message }),
  });
  const body = (await res.json()) as { status?: string };
  if (res.status !== 200 || body.status !== 'success')
    throw new Error(`turn failed: ${res.status} ${JSON.stringify(body)}`);
  return performance.now() - start;
}

/** Interleaved so that machine noise hits both sides alike. */
export async function benchTurnOverhead(opts: {
  url: string;
  token: string;
  home: string;
  modelUrl: string;
  runs: number;
}) {
  const api: number[] = [];
  const bare: number[] = [];
  await platformTurn(opts.url, opts.token, 'warm up');
  await bareTurn(opts.home, opts.modelUrl, 'warm up');
  for (let i = 0; i < opts.runs; i++) {
    api.push(await platformTurn(opts.url, opts.token, `hello ${i}`));
    bare.push(await bareTurn(opts.home, opts.modelUrl, `hello ${i}`));
  }
  const apiMs = median(api);
  const bareMs = median(bare);
  return { apiMs, bareMs, overheadMs: apiMs - bareMs, ratio: apiMs / bareMs };
}
