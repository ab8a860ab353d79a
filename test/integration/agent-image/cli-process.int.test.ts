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
