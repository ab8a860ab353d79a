import { join } from 'node:path';
import { lifecycleSweep } from '@reprise/functions/core/agent-lifecycle';
import { waitForTerminal } from '@reprise/functions/core/wait';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientFor, startLocalStack, type TestStack } from '../helpers/local-stack';
import { processesIn, processGroups } from '../helpers/process-tree';

type Client = Awaited<ReturnType<typeof clientFor>>;
let stack: TestStack;
let bob: Client;
let dana: Client;
let carol: Client;

/** How far the platform's clock runs ahead of the real one: the idle test moves it past a timeout. */
let ahead = 0;

beforeAll(async () => {
  // A fast lifecycle pass, so an idle stop follows its timeout closely (the test awaits the exit).
  stack = await startLocalStack({
    dynamoEndpoint: inject('dynamoEndpoint'),
    lifecycleIntervalMs: 1000,
    clock: { now: () => Date.now() + ahead },
  });
  bob = await clientFor(stack.url, 'bob@acme.test');
  dana = await clientFor(stack.url, 'dana@acme.test');
  carol = await clientFor(stack.url, 'carol@globex.test');
});
afterAll(() => stack?.stop());

const ref = (agent: string) => ({ tenant: 'acme', agent });

async function createAgent(name: string, settings: Record<string, unknown> = {}) {
  const res = await bob.call('POST', '/api/agents', { name, shared_with: ['dana@acme.test'], ...settings });
  expect(res.status).toBe(201);
  expect(res.body.status).toBe('stopped');
  return res.body;
}

/** Awaits the run's end in-process (many HTTP long-polls at once would meet the rate limit). */
async function finished(id: string) {
  const core = stack.platform.core;
  const e = await core.stores.executions.getExecution('acme', id);
  if (!e) throw new Error(`no execution ${id}`);
  await waitForTerminal(core, e, 120_000);
  return (await bob.call('GET', `/api/executions/${id}`)).body;
}

/**
 * CLI runs going on in the agent's work dir: each CLI is started in its own process group, and the
 * helpers it spawns (a shell snapshot, a tool) share it, so count groups, not processes.
 */
function cliProcesses(agent: string): number {
  return processGroups(processesIn(join(stack.dataDir, 'agents', 'acme', agent, 'w'), 'claude')).length;
}

describe('wake on demand', () => {
  it('runs a task on a stopped agent: queued waiting for the agent, then it wakes and succeeds', async () => {
    await createAgent('sleepy');
    const res = await bob.call('POST', '/api/agents/sleepy/task?wait=25', { message: 'hello there' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', waiting_for: null });
    expect(res.body.response).toContain('hello there');
    expect(stack.platform.fleet.startCount(ref('sleepy'))).toBe(1);
    const events = await bob.call('GET', `/api/executions/${res.body.id}/events?format=json&after=0`);
    const statuses = events.body.events.filter((e: { type: string }) => e.type === 'status');
    expect(statuses[0].data).toMatchObject({ status: 'queued', waiting_for: 'agent' });
    expect(statuses.at(-1).data.status).toBe('running');
    expect(events.body.events.map((e: { seq: number }) => e.seq)).toEqual(
      events.body.events.map((_: unknown, i: number) => i + 1),
    );
    const agent = await bob.call('GET', '/api/agents/sleepy');
    expect(agent.body).toMatchObject({
      status: 'running',
      idle_timeout_seconds: 900,
      max_concurrent_runs: 4,
    });
    expect(Date.parse(agent.body.last_active_at)).toBeGreaterThanOrEqual(Date.parse(res.body.created_at));
  });

  it('starts a stopped agent once for ten concurrent tasks, and all ten succeed', async () => {
    await createAgent('crowd');
    const accepted = await Promise.all(
      Array.from({ length: 10 }, (_, i) => bob.call('POST', '/api/agents/crowd/task', { message: `n${i}` })),
    );
    expect(accepted.map((r) => r.status)).toEqual(Array(10).fill(202));
    const done = await Promise.all(accepted.map((r) => finished(r.body.execution_id)));
    expect(done.map((e) => e.status)).toEqual(Array(10).fill('success'));
    expect(stack.platform.fleet.startCount(ref('crowd'))).toBe(1);
  });

  it('wakes an agent for a scheduled run', async () => {
    await createAgent('cron-sleeper');
    const schedule = await bob.call('POST', '/api/agents/cron-sleeper/schedules', {
      name: 'nightly',
      cron: '0 3 * * *',
      message: 'run: echo scheduled',
    });
    expect(schedule.status).toBe(201);
    const fired = await stack.scheduler.tick(Date.parse('2031-01-01T03:00:10Z'));
    expect(fired).toHaveLength(1);
    const list = await bob.call('GET', '/api/agents/cron-sleeper/executions?source=schedule');
    expect(list.body.items).toHaveLength(1);
    const run = await finished(list.body.items[0].id);
    expect(run).toMatchObject({ status: 'success', source: 'schedule' });
    expect(run.response).toContain('scheduled');
  });

  it('POST /wake starts a sleeping agent without a run, for anyone who can see it', async () => {
    await createAgent('early');
    expect((await carol.call('POST', '/api/agents/early/wake')).status).toBe(404);
    const woke = await dana.call('POST', '/api/agents/early/wake');
    expect(woke.status).toBe(202);
    expect(woke.body.name).toBe('early');
    await stack.platform.drain();
    expect((await bob.call('GET', '/api/agents/early')).body.status).toBe('running');
    expect((await dana.call('POST', '/api/agents/early/wake')).status).toBe(202);
    await stack.platform.drain();
    expect(stack.platform.fleet.startCount(ref('early'))).toBe(1);
  });
});

describe('capacity', () => {
  it('runs at most max_concurrent_runs turns at once, in arrival order, and all succeed', async () => {
    await createAgent('narrow', { max_concurrent_runs: 2 });
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, cliProcesses('narrow'));
    }, 50);
    try {
      const accepted = [];
      // One after the other, so arrival order is defined; none waits for the previous to finish.
      for (let i = 0; i < 10; i++)
        accepted.push(await bob.call('POST', '/api/agents/narrow/task', { message: 'sleep: 3' }));
      expect(accepted.map((r) => r.status)).toEqual(Array(10).fill(202));
      const last = accepted[9]!.body.execution_id;
      const first = await bob.call('GET', `/api/executions/${last}/events?format=json&after=0&wait=20`);
      expect(first.body.events[0].data).toMatchObject({ type: 'status', status: 'queued' });
      const queued = await bob.call('GET', `/api/executions/${last}`);
      expect(queued.body.status).toBe('queued');
      // As the agent wakes, what the run waits for moves from the agent to a free slot; each move
      // is stored, then told as a status event: the event naming the stored reason comes.
      expect(['agent', 'capacity']).toContain(queued.body.waiting_for);
      type Told = { seq: number; data: { waiting_for?: string } };
      const told: Told[] = [...first.body.events];
      while (!told.some((ev) => ev.data.waiting_for === queued.body.waiting_for)) {
        const after = told.at(-1)!.seq;
        const more = await bob.call(
          'GET',
          `/api/executions/${last}/events?format=json&after=${after}&wait=10`,
        );
        expect(more.body.events.length).toBeGreaterThan(0);
        told.push(...more.body.events);
      }
      const done = await Promise.all(accepted.map((r) => finished(r.body.execution_id)));
      expect(done.filter((e) => e.status !== 'success').map((e) => [e.status, e.error])).toEqual([]);
      // Never more than two running at once, by the platform's own timestamps...
      const spans = done.map((e) => [Date.parse(e.started_at), Date.parse(e.finished_at)] as const);
      const overlap = Math.max(...spans.map(([s]) => spans.filter(([a, b]) => a <= s && s < b).length));
      expect(overlap, JSON.stringify(spans)).toBeLessThanOrEqual(2);
      // ...and by the CLI processes seen.
      expect(peak).toBeGreaterThan(0);
      expect(peak, 'CLI runs at once').toBeLessThanOrEqual(2);
      const byStart = [...done].sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at));
      expect(byStart.map((e) => e.id)).toEqual(done.map((e) => e.id));
      const late = await bob.call('GET', `/api/executions/${done[9].id}/events?format=json&after=0`);
      expect(late.body.events[0].data).toMatchObject({ status: 'queued' });
    } finally {
      clearInterval(sampler);
    }
  });
});

describe('settings', () => {
  it('lets the owner change them, forbids other operators, hides them from other tenants and validates', async () => {
    const created = await createAgent('tunable', { idle_timeout_seconds: 0, max_concurrent_runs: 8 });
    expect(created).toMatchObject({ idle_timeout_seconds: 0, max_concurrent_runs: 8, last_active_at: null });
    const put = (c: Client, body: unknown) => c.call('PUT', '/api/agents/tunable/settings', body);
    const ok = await put(bob, { idle_timeout_seconds: 120 });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ idle_timeout_seconds: 120, max_concurrent_runs: 8 });
    expect((await put(dana, { max_concurrent_runs: 1 })).status).toBe(403);
    expect((await put(carol, { max_concurrent_runs: 1 })).status).toBe(404);
    for (const bad of [
      { idle_timeout_seconds: 59 },
      { idle_timeout_seconds: 86_401 },
      { max_concurrent_runs: 0 },
    ]) {
      const res = await put(bob, bad);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
    }
    const invalid = await bob.call('POST', '/api/agents', { name: 'bad-timeout', idle_timeout_seconds: 30 });
    expect(invalid.status).toBe(400);
    expect((await bob.call('GET', '/api/agents/demo')).body.idle_timeout_seconds).toBe(900);
  });
});

describe('sleep when idle', () => {
  it('stops an idle agent after idle_timeout_seconds and a later chat turn wakes it with full context', async () => {
    await createAgent('napper', { idle_timeout_seconds: 60 });
    const first = await bob.call('POST', '/api/agents/napper/task?wait=25', {
      message: 'remember the word papaya',
      start_chat: true,
    });
    expect(first.body.status).toBe('success');
    // Before the timeout a lifecycle pass leaves it running; once the clock is past it, one stops it.
    await lifecycleSweep(stack.platform.core);
    expect((await bob.call('GET', '/api/agents/napper')).body.status).toBe('running');
    const exited = stack.platform.fleet.exited(ref('napper'));
    ahead += 61_000;
    await exited;
    const slept = await bob.call('GET', '/api/agents/napper');
    expect(slept.body.status).toBe('stopped');
    const stoppedAt = (await stack.platform.core.stores.agents.getAgent('acme', 'napper'))!.state_at!;
    const idleFor = Date.parse(stoppedAt) - Date.parse(slept.body.last_active_at);
    expect(idleFor).toBeGreaterThanOrEqual(60_000);
    expect(idleFor).toBeLessThan(90_000);

    const next = await bob.call('POST', '/api/agents/napper/task?wait=25', {
      message: 'recap',
      chat_session_id: first.body.chat_session_id,
    });
    expect(next.status).toBe(200);
    expect(next.body.status).toBe('success');
    expect(next.body.response).toContain('remember the word papaya');
    expect(stack.platform.fleet.startCount(ref('napper'))).toBe(2);
  });
});

describe('a start that fails', () => {
  let broken: TestStack;
  afterAll(() => broken?.stop());

  it('ends every waiting run agent_start_failed with a message, and leaves none queued', async () => {
    broken = await startLocalStack({
      dynamoEndpoint: inject('dynamoEndpoint'),
      agentCommand: [process.execPath, '-e', 'process.exit(3)'],
    });
    const b = await clientFor(broken.url, 'bob@acme.test');
    const accepted = await Promise.all(
      ['one', 'two', 'three'].map((message) => b.call('POST', '/api/agents/demo/task', { message })),
    );
    expect(accepted.map((r) => r.status)).toEqual([202, 202, 202]);
    await broken.platform.drain();
    for (const r of accepted) {
      const e = (await b.call('GET', `/api/executions/${r.body.execution_id}`)).body;
      expect(e.status).toBe('failed');
      expect(e.error.code).toBe('agent_start_failed');
      expect(e.error.message).toMatch(/could not be started.*Try again/);
      const events = await b.call('GET', `/api/executions/${e.id}/events?format=json&after=0`);
      expect(events.body.done).toBe(true);
      expect(events.body.events.at(-1).data.error.code).toBe('agent_start_failed');
    }
    const queued = await b.call('GET', '/api/agents/demo/executions?status=queued');
    expect(queued.body.items).toEqual([]);
    expect((await b.call('GET', '/api/agents/demo')).body.status).toBe('failed');
  });
});
