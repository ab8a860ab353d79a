import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent } from '@reprise/functions/agent-events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentServerProcess, startAgentServerProcess } from '../../helpers/agent-server';
import { processesIn, processGroups } from '../../helpers/process-tree';
import { type ScriptedModel, startScriptedModel } from '../../helpers/scripted-model';
import { post, runTurn, runTurnFrom, type Server, task, waitFor } from './task-client';

interface WarmItem {
  session_id: string;
  pid: number | null;
  turns: number;
  idle_ms: number;
}

let model: ScriptedModel;
let server: AgentServerProcess;
const started: AgentServerProcess[] = [];

const startServer = async (env: Record<string, string> = {}, dirs: Partial<AgentServerProcess> = {}) => {
  const own = await startAgentServerProcess({ modelUrl: model.url, env, ...dirs });
  started.push(own);
  return own;
};

beforeAll(async () => {
  model = await startScriptedModel();
  server = await startServer({ WARM_POOL_SIZE: '4' });
});
afterAll(async () => {
  for (const own of started) await own.stop().catch(() => {});
  await model?.close();
});

const warmList = async (target: Server): Promise<WarmItem[]> => {
  const res = await fetch(`${target.url}/api/warm`, { headers: { authorization: `Bearer ${target.token}` } });
  if (res.status !== 200) throw new Error(`GET /api/warm answered ${res.status}`);
  return ((await res.json()) as { items: WarmItem[] }).items;
};

const warmPid = async (target: Server, sessionId: string): Promise<number | null> =>
  (await warmList(target)).find((item) => item.session_id === sessionId)?.pid ?? null;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The CLI sessions of one agent server: the process groups working in its fixed workdir. */
const cliSessionsIn = (workdir: string): number[] => processGroups(processesIn(workdir));

/** Polls an HTTP-observable condition that a timer in the agent server will make true. */
const eventually = async (condition: () => Promise<boolean>, ms = 15_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** A chat as the platform drives it: each turn resumes the session id the previous one returned. */
const chat = (target: Server) => {
  let sessionId: string | null = null;
  return {
    get sessionId() {
      return sessionId;
    },
    say: async (message: string, extra: Record<string, unknown> = {}) => {
      const body = sessionId
        ? task(message, { session_id: sessionId, resume: true, ...extra })
        : task(message, extra);
      const turn = await runTurn(target, body);
      expect(turn.result.status).toBe('success');
      sessionId = turn.result.session_id;
      return turn;
    },
  };
};

/** Reads NDJSON events until `until` matches one; the rest keeps flowing into `rest`. */
const readUntil = async (response: Response, until: (event: AgentEvent) => boolean) => {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: AgentEvent[] = [];
  let buffer = '';
  const pump = async (stop: boolean): Promise<boolean> => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return false;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      let hit = false;
      for (const line of lines) {
        if (!line.trim()) continue;
        const event = JSON.parse(line) as AgentEvent;
        events.push(event);
        if (until(event)) hit = true;
      }
      if (stop && hit) return true;
    }
  };
  if (!(await pump(true))) throw new Error('stream ended before the awaited event');
  return { events, rest: pump(false).then(() => events) };
};

describe('warm chat turns (real claude CLI kept alive, scripted model)', () => {
  it('answers five turns of one chat from one process, each recalling every earlier turn', async () => {
    const c = chat(server);
    const prompts = ['hello alpha'];
    await c.say(prompts[0]!);
    const pid = await warmPid(server, c.sessionId!);
    expect(pid).toBeGreaterThan(0);
    for (let k = 2; k <= 5; k++) {
      const prompt = `recap number ${k}`;
      const turn = await c.say(prompt);
      for (const earlier of prompts) expect(turn.result.response).toContain(`You asked: ${earlier}`);
      expect(turn.result.session_id).toBe(c.sessionId);
      expect(turn.events[0]).toMatchObject({ type: 'status', session_id: c.sessionId });
      expect(turn.events.filter((e) => e.type === 'result')).toHaveLength(1);
      // The answer itself is archived after the turn, not only the prompt.
      const archived = readFileSync(join(server.archiveDir, `${c.sessionId}.jsonl`), 'utf8');
      expect(archived).toContain(JSON.stringify(turn.result.response).slice(1, -1));
      const listed = (await warmList(server)).find((item) => item.session_id === c.sessionId);
      expect(listed).toMatchObject({ pid, turns: k });
      prompts.push(prompt);
    }
  });

  it('keeps the warm process of a Continue-as-Chat fork under the fork’s new session id', async () => {
    const source = chat(server);
    await source.say('the original run');
    const fork = await runTurn(
      server,
      task('first chat turn', { session_id: source.sessionId, resume: true, fork_session: true }),
    );
    expect(fork.result.status).toBe('success');
    const forkId = fork.result.session_id!;
    expect(forkId).not.toBe(source.sessionId);
    const pid = await warmPid(server, forkId);
    expect(pid).toBeGreaterThan(0);
    const next = await runTurn(server, task('recap', { session_id: forkId, resume: true }));
    expect(next.result).toMatchObject({ status: 'success', session_id: forkId });
    expect(next.result.response).toContain('You asked: the original run');
    expect(next.result.response).toContain('You asked: first chat turn');
    expect(await warmPid(server, forkId)).toBe(pid);
  });

  it('restores a transcript deleted while its chat is warm; the warm turn lands in the restored file', async () => {
    const c = chat(server);
    await c.say('before the delete');
    const pid = await warmPid(server, c.sessionId!);
    const file = join(
      server.home,
      '.claude',
      'projects',
      server.workdir.replace(/[^A-Za-z0-9]/g, '-'),
      `${c.sessionId}.jsonl`,
    );
    rmSync(file);
    const turn = await c.say('recap after the delete');
    expect(turn.events).toContainEqual(
      expect.objectContaining({ type: 'error', code: 'transcript_restored' }),
    );
    expect(turn.result.response).toContain('You asked: before the delete');
    expect(await warmPid(server, c.sessionId!)).toBe(pid);
    const answer = JSON.stringify(turn.result.response).slice(1, -1);
    expect(readFileSync(file, 'utf8')).toContain(answer);
    expect(readFileSync(join(server.archiveDir, `${c.sessionId}.jsonl`), 'utf8')).toContain(answer);
  });

  it('starts a new process when a turn asks for another model, and keeps the context', async () => {
    const c = chat(server);
    await c.say('model one turn');
    const first = (await warmPid(server, c.sessionId!))!;
    const turn = await c.say('recap with another model', { model: 'claude-scripted-b' });
    expect(turn.result.response).toContain('You asked: model one turn');
    const second = (await warmPid(server, c.sessionId!))!;
    expect(second).not.toBe(first);
    await waitFor(() => !alive(first));
    await c.say('same model again', { model: 'claude-scripted-b' });
    expect(await warmPid(server, c.sessionId!)).toBe(second);
  });

  it('still answers 409 session_busy to a second concurrent turn on a warm session', async () => {
    const c = chat(server);
    await c.say('busy chat');
    const pid = await warmPid(server, c.sessionId!);
    const slow = post(server, '/api/task', task('sleep: 2', { session_id: c.sessionId, resume: true }));
    const { rest } = await readUntil(await slow, (e) => e.type === 'status');
    const second = await post(server, '/api/task', task('me too', { session_id: c.sessionId, resume: true }));
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: { code: 'session_busy' } });
    expect((await rest).at(-1)).toMatchObject({ type: 'result', status: 'success' });
    expect(await warmPid(server, c.sessionId!)).toBe(pid);
  });

  it('cancels a warm turn by stopping its process; the next turn recalls the cancelled prompt', async () => {
    const c = chat(server);
    await c.say('before the cancel');
    const pid = (await warmPid(server, c.sessionId!))!;
    const body = task('sleep: 30\nthe cancelled words', { session_id: c.sessionId, resume: true });
    const { rest } = await readUntil(await post(server, '/api/task', body), (e) => e.type === 'text');
    expect((await post(server, `/api/task/${body.execution_id}/cancel`)).status).toBe(202);
    expect((await rest).at(-1)).toMatchObject({ type: 'result', status: 'cancelled' });
    await waitFor(() => !alive(pid));
    const next = await c.say('recap');
    expect(next.result.response).toContain('You asked: before the cancel');
    expect(next.result.response).toContain('the cancelled words');
    expect(await warmPid(server, c.sessionId!)).not.toBe(pid);
  });

  it('never mixes the answers of two chats that are warm at once', async () => {
    const a = chat(server);
    const b = chat(server);
    await Promise.all([a.say('apple one'), b.say('banana one')]);
    const pids = [await warmPid(server, a.sessionId!), await warmPid(server, b.sessionId!)];
    expect(pids[0]).not.toBe(pids[1]);
    for (let round = 2; round <= 3; round++) {
      const [ta, tb] = await Promise.all([a.say(`apple ${round} recap`), b.say(`banana ${round} recap`)]);
      expect(ta.result.response).toContain('You asked: apple one');
      expect(ta.text).not.toContain('banana');
      expect(ta.result.response).not.toContain('banana');
      expect(tb.result.response).toContain('You asked: banana one');
      expect(tb.text).not.toContain('apple');
      expect(tb.result.response).not.toContain('apple');
    }
    expect([await warmPid(server, a.sessionId!), await warmPid(server, b.sessionId!)]).toEqual(pids);
  });
});

describe('warm pool limits and faults', () => {
  it('keeps at most N processes: the least recently used chat is evicted and later resumes cold', async () => {
    const own = await startServer({ WARM_POOL_SIZE: '2' });
    const chats = [chat(own), chat(own), chat(own)];
    for (const [i, c] of chats.entries()) await c.say(`chat ${i} first`);
    const listed = (await warmList(own)).map((item) => item.session_id);
    expect(listed).toEqual([chats[1]!.sessionId, chats[2]!.sessionId]);
    await waitFor(() => cliSessionsIn(own.workdir).length === 2);
    const back = await chats[0]!.say('recap');
    expect(back.result.response).toContain('You asked: chat 0 first');
    expect((await warmList(own)).map((item) => item.session_id)).toEqual([
      chats[2]!.sessionId,
      chats[0]!.sessionId,
    ]);
    await waitFor(() => cliSessionsIn(own.workdir).length === 2);
  });

  it('stops a process that stays idle past WARM_IDLE_SECONDS', async () => {
    const own = await startServer({ WARM_IDLE_SECONDS: '1' });
    const c = chat(own);
    await c.say('soon idle');
    await eventually(async () => (await warmList(own)).length === 0);
    await waitFor(() => cliSessionsIn(own.workdir).length === 0);
    const next = await c.say('recap');
    expect(next.result.response).toContain('You asked: soon idle');
  });

  it('stops every warm process on SIGTERM', async () => {
    const own = await startServer();
    await Promise.all([chat(own).say('one'), chat(own).say('two')]);
    expect(cliSessionsIn(own.workdir)).toHaveLength(2);
    await own.stop();
    expect(cliSessionsIn(own.workdir)).toEqual([]);
  });

  it('loses no completed turn when the agent server is killed between turns', async () => {
    const dirs = {
      home: mkdtempSync(join(tmpdir(), 'wh-')),
      workdir: mkdtempSync(join(tmpdir(), 'ww-')),
      archiveDir: mkdtempSync(join(tmpdir(), 'wa-')),
    };
    try {
      const first = await startServer({}, dirs);
      const c = chat(first);
      await c.say('kept one');
      await c.say('kept two');
      const pid = (await warmPid(first, c.sessionId!))!;
      process.kill(first.pid, 'SIGKILL');
      await first.stop();
      // Its stdin closed with the server: the idle CLI exits instead of lingering as a second writer.
      await waitFor(() => !alive(pid));
      const second = await startServer({}, dirs);
      const turn = await runTurnFrom(
        await post(second, '/api/task', task('recap', { session_id: c.sessionId, resume: true })),
      );
      expect(turn.result.status).toBe('success');
      expect(turn.result.response).toContain('You asked: kept one');
      expect(turn.result.response).toContain('You asked: kept two');
      await second.stop();
    } finally {
      for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
    }
  });
});
