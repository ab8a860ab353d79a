import { afterAll, describe, expect, it } from 'vitest';
import { startBrowserRig } from '../helpers/browser';
import { descendantsOf, killAll, stillAlive } from '../helpers/process-tree';

const leftovers: number[] = [];
afterAll(() => killAll(leftovers));

describe('a browser suite whose setup fails', () => {
  it('stops every process the setup had started (DynamoDB Local, agent servers)', async () => {
    const before = new Set(descendantsOf(process.pid));
    const previous = process.env.REPRISE_CHROMIUM;
    // A "browser" that exists but cannot be launched: the rig fails after the stack is up.
    process.env.REPRISE_CHROMIUM = '/bin/false';
    const started: number[] = [];
    const watch = setInterval(() => {
      for (const pid of descendantsOf(process.pid))
        if (!before.has(pid) && !started.includes(pid)) started.push(pid);
    }, 20);
    try {
      await expect(startBrowserRig('rig-setup-failure')).rejects.toThrow();
    } finally {
      clearInterval(watch);
      if (previous === undefined) delete process.env.REPRISE_CHROMIUM;
      else process.env.REPRISE_CHROMIUM = previous;
    }
    leftovers.push(...started);
    // The stack really had started its processes (java, the demo agent's server) …
    expect(started.length).toBeGreaterThan(1);
    // … and none is left.
    expect(stillAlive(started)).toEqual([]);
  });
});
