import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../infra/local/src/ports';
import { clientFor, startLocalStack } from '../helpers/local-stack';
import { descendantsOf, killAll, stillAlive } from '../helpers/process-tree';
import { processesMentioning, waitFor } from './agent-image/task-client';

interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<number | null>;
}

const seen: number[] = [];
const started: ChildProcess[] = [];
const dirs: string[] = [];

/** `npm start` as a user runs it: its own process group, so a signal to the group is Ctrl-C. */
const npmStart = async (dataDir: string, port: number): Promise<Started> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/src/start.ts'], {
    env: { ...process.env, PORT: String(port), REPRISE_DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  seen.push(child.pid!);
  started.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('Reprise is ready at')) resolve();
    });
    void exited.then((code) => reject(new Error(`npm start exited with ${code}: ${stderr}`)));
  });
  child.stderr!.resume();
  return { child, url: `http://localhost:${port}`, exited };
};

const sigtermGroup = async (s: Started) => {
  seen.push(...descendantsOf(s.child.pid!));
  process.kill(-s.child.pid!, 'SIGTERM');
  return s.exited;
};

afterAll(async () => {
  // A failed test leaves its `npm start` up: take its tree while it is whole, then end it all.
  for (const child of started) if (child.exitCode === null) seen.push(...descendantsOf(child.pid!));
  killAll(seen);
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('npm start stopped mid-turn', () => {
  it('ends the in-flight run as interrupted, frees its session, leaves no process and finds nothing running on restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rp-stop-'));
    dirs.push(dataDir);
    const port = await freePort();
    const first = await npmStart(dataDir, port);
    const bob = await clientFor(first.url, 'bob@acme.test');
    const hello = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'hello' });
    expect(hello.status).toBe(200);
    const session = hello.body.claude_session_id as string;
    const turn = await bob.call('POST', '/api/agents/demo/task', {
      message: 'sleep: 60',
      resume_session_id: session,
    });
    expect(turn.status).toBe(202);
    await waitFor(() => processesMentioning(session).length > 0, 30_000);
    const processes = descendantsOf(first.child.pid!);
    expect(processes.length).toBeGreaterThan(2);

    expect(await sigtermGroup(first)).toBe(0);
    // Every process it started is gone: the CLI, the tool, agent servers, DynamoDB Local.
    await waitFor(() => stillAlive(processes).length === 0, 10_000);
    expect(processesMentioning(session)).toEqual([]);

    const second = await npmStart(dataDir, port);
    try {
      const again = await clientFor(second.url, 'bob@acme.test');
      const after = await again.call('GET', `/api/executions/${turn.body.execution_id}`);
      expect(after.body).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
      expect(after.body.error.message).toMatch(/platform stopped/);
      const running = await again.call('GET', '/api/agents/demo/executions?status=running');
      expect(running.body.items).toEqual([]);
      // The plain resume's lease was released: the same session takes the next turn at once.
      const next = await again.call('POST', '/api/agents/demo/task?wait=25', {
        message: 'recap',
        resume_session_id: session,
      });
      expect(next.status).toBe(200);
    } finally {
      expect(await sigtermGroup(second)).toBe(0);
    }
  });
});

describe('start-up after a process that died mid-turn', () => {
  it('ends the runs the previous process never finished before it serves', async () => {
    const dynamoEndpoint = inject('dynamoEndpoint');
    const old = await startLocalStack({ dynamoEndpoint });
    try {
      const bob = await clientFor(old.url, 'bob@acme.test');
      const turn = await bob.call('POST', '/api/agents/demo/task', { message: 'sleep: 60' });
      await bob.call('GET', `${turn.body.events_url}?format=json&wait=10`);
      expect((await bob.call('GET', `/api/executions/${turn.body.execution_id}`)).body.status).toBe(
        'running',
      );
      // A new process on the same table, as after a crash: the old run is not its to wait for.
      const next = await startLocalStack({ dynamoEndpoint, tableName: old.tableName });
      try {
        const bobAgain = await clientFor(next.url, 'bob@acme.test');
        const after = await bobAgain.call('GET', `/api/executions/${turn.body.execution_id}`);
        expect(after.body).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
        const events = await bobAgain.call('GET', `${turn.body.events_url}?format=json`);
        expect(JSON.stringify(events.body)).toContain('interrupted');
      } finally {
        await next.stop();
      }
    } finally {
      await old.stop();
    }
  });
});
