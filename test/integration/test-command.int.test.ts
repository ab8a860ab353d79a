import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { descendantsOf, killAll, stillAlive } from '../helpers/process-tree';

describe('the test command on a machine without the browser', () => {
  it('stops before starting anything, with one line saying what to install', async () => {
    const child = spawn(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', '--project', 'e2e', 'test/e2e/rig-setup-failure.e2e.test.ts'],
      {
        env: { ...process.env, REPRISE_CHROMIUM: '/nonexistent/chromium' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const seen = new Set<number>();
    const watch = setInterval(() => {
      for (const pid of descendantsOf(child.pid!)) seen.add(pid);
    }, 20);
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearInterval(watch);
    killAll([...seen]);
    expect(code).toBe(1);
    const lines = stderr.split('\n').filter((l) => l.startsWith('reprise tests:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('Chromium at /nonexistent/chromium');
    expect(stderr).not.toContain('DynamoDB');
    expect(stillAlive([...seen])).toEqual([]);
  });
});
