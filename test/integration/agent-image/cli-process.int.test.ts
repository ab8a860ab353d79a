import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { runCli } from '@reprise/agent-image/cli-process';
import { describe, expect, it } from 'vitest';
import { processesMentioning, waitFor } from './task-client';

const invoke = (script: string, signal: AbortSignal, lines: string[] = [], killGraceMs = 200) =>
  runCli({
    bin: '/bin/sh',
    args: ['-c', script],
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    input: 'prompt on stdin',
    signal,
    killGraceMs,
    onLine: (line) => lines.push(line),
  });

describe('CLI process runner', () => {
  it('feeds the prompt on stdin and reports stdout line by line', async () => {
    const lines: string[] = [];
    const exit = await invoke('cat; echo; echo second', new AbortController().signal, lines);
    expect(lines).toEqual(['prompt on stdin', 'second']);
    expect(exit).toMatchObject({ exitCode: 0, spawnError: null });
  });

  it('kills the whole process group, grandchildren included, when aborted', async () => {
    const marker = randomUUID();
    const controller = new AbortController();
    // Both shells carry the marker in their argv: the outer one and its backgrounded grandchild.
    const run = invoke(`sh -c 'sleep 300; : ${marker}' & sleep 301; : ${marker}`, controller.signal);
    await waitFor(() => processesMentioning(marker).length >= 2);
    controller.abort('cancelled');
    await run;
    expect(processesMentioning(marker)).toEqual([]);
  });

  it.each([
    ['unconfined', 'none'],
    ['in the sandbox', ''],
  ])('ends a tool that left the process group with setsid when the run ends (%s)', async (_name, sandbox) => {
    const previous = process.env.AGENT_SANDBOX;
    process.env.AGENT_SANDBOX = sandbox;
    const seconds = 500 + Math.floor(Math.random() * 400);
    try {
      const exit = await invoke(
        `setsid sh -c 'cd / && sleep ${seconds}' >/dev/null 2>&1 < /dev/null & sleep 0.3; echo left`,
        new AbortController().signal,
      );
      expect(exit.exitCode).toBe(0);
      expect(processesMentioning(`sleep ${seconds}`)).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.AGENT_SANDBOX;
      else process.env.AGENT_SANDBOX = previous;
    }
  });

  it('escalates to SIGKILL when the process ignores SIGTERM', async () => {
    const controller = new AbortController();
    const lines: string[] = [];
    const run = invoke("trap '' TERM; echo ready; while :; do sleep 0.05; done", controller.signal, lines);
    await waitFor(() => lines.includes('ready'));
    controller.abort('timeout');
    expect((await run).signal).toBe('SIGKILL');
  });

  it('reports a binary that cannot be started', async () => {
    const exit = await runCli({
      bin: '/nonexistent/claude',
      args: [],
      cwd: tmpdir(),
      env: {},
      input: '',
      signal: new AbortController().signal,
      killGraceMs: 10,
      onLine: () => {},
    });
    expect(exit.spawnError).toContain('ENOENT');
  });
});
