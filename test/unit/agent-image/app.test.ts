import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentServer } from '@reprise/agent-image/app';
import { createDirArchive } from '@reprise/agent-image/archive/dir';
import type { RunIo, RunOutcome, RunSpec, Runtime } from '@reprise/agent-image/runtime';
import { createFileLedger } from '@reprise/agent-image/session-ledger';
import type { AgentEvent } from '@reprise/functions/agent-events';
import { silentLogger } from '@reprise/functions/lib/log';
import { describe, expect, it, vi } from 'vitest';

const TOKEN = 'test-token';
const KEY = 'sk-ant-api03-FAKEFAKEFAKEFAKEFAKE';
type Behaviour = (spec: RunSpec, io: RunIo) => Promise<RunOutcome>;

const ok = (spec: RunSpec, response = 'done'): RunOutcome => ({
  status: 'success',
  sessionId: spec.sessionId,
  response,
  error: null,
  costUsd: 0.01,
  contextUsed: 100,
  contextMax: 1000,
  numTurns: 1,
  toolCalls: [],
});

const untilAborted = (io: RunIo) =>
  new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });

type Archive = ReturnType<typeof createDirArchive>;

const setup = (
  behaviour: Behaviour = async (spec) => ok(spec),
  gate: Promise<void> = Promise.resolve(),
  wrapArchive: (archive: Archive) => Archive = (archive) => archive,
) => {
  const home = mkdtempSync(join(tmpdir(), 'app-'));
  const archiveDir = join(home, 'archive');
  const calls: RunSpec[] = [];
  const runtime: Runtime = {
    name: 'fake',
    transcriptPath: (id) => join(home, 'projects', `${id}.jsonl`),
    run: async (spec, io) => {
      calls.push(spec);
      mkdirSync(join(home, 'projects'), { recursive: true });
      const written = spec.forkSession ? `forked-${calls.length}` : spec.sessionId;
      writeFileSync(runtime.transcriptPath(written), '{"turn":1}\n');
      return behaviour(spec, io);
    },
  };
  const files = createFileLedger(home);
  const ledger = { ...files, add: async (id: string) => gate.then(() => files.add(id)) };
  const app = createAgentServer({
    token: TOKEN,
    runtime,
    archive: wrapArchive(createDirArchive(archiveDir)),
    ledger,
    logger: silentLogger,
  });
  const request = (path: string, body?: unknown, token = TOKEN) =>
    app.request(path, {
      method: body === undefined && !path.endsWith('/cancel') ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  return { app, home, archiveDir, calls, runtime, ledger, request };
};

const body = (extra: Record<string, unknown> = {}) => ({
  execution_id: 'ex-1',
  session_id: '11111111-2222-4333-8444-555555555555',
  message: 'hello',
  ...extra,
});

const events = async (response: Response): Promise<AgentEvent[]> =>
  (await response.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AgentEvent);

describe('agent server routes', () => {
  it('rejects a task without the bearer token', async () => {
    const response = await setup().request('/api/task', body(), '');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('rejects a task with a wrong token of the same length', async () => {
    expect((await setup().request('/api/task', body(), 'test-tokeX')).status).toBe(401);
  });

  it.each(['../x', 'dispatched', 'dispatched_async', ''])('answers invalid_session_id for %j', async (id) => {
    const response = await setup().request('/api/task', body({ session_id: id }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_session_id' } });
  });

  it('answers validation_error for a body that is not JSON', async () => {
    const response = await setup().request('/api/task', '{nope');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'validation_error' } });
  });

  it('streams status first, sanitized events, and exactly one result last', async () => {
    const { request, archiveDir } = setup(async (spec, io) => {
      io.emit({ type: 'tool_use', id: 't1', name: 'Bash', input: { command: `echo ${KEY}` } });
      io.emit({ type: 'tool_result', tool_use_id: 't1', is_error: false, output_preview: KEY });
      io.emit({ type: 'text', text: 'the key is ' });
      io.emit({ type: 'text', text: `${KEY.slice(0, 10)}` });
      io.emit({ type: 'text', text: `${KEY.slice(10)} ok` });
      return ok(spec, `the key is ${KEY}`);
    });
    const response = await request('/api/task', body());
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const raw = await response.clone().text();
    expect(raw).not.toContain('FAKEFAKE');
    const list = await events(response);
    expect(list[0]).toMatchObject({ type: 'status', status: 'running', session_id: body().session_id });
    expect(list.filter((e) => e.type === 'result')).toHaveLength(1);
    expect(list.at(-1)).toMatchObject({
      type: 'result',
      status: 'success',
      response: 'the key is ***REDACTED***',
    });
    expect(readFileSync(join(archiveDir, `${body().session_id}.jsonl`), 'utf8')).toBe('{"turn":1}\n');
  });

  it('returns 409 session_busy while another turn holds the session', async () => {
    const { request } = setup(async (spec, io) => {
      await untilAborted(io);
      return ok(spec);
    });
    const first = await request('/api/task', body());
    const second = await request('/api/task', body({ execution_id: 'ex-2', resume: true }));
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: { code: 'session_busy' } });
    expect((await request('/api/task/ex-1/cancel', undefined)).status).toBe(202);
    expect((await events(first)).at(-1)).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
  });

  it('reports the result before archiving; the session’s next turn waits for the archive, not refused', async () => {
    const order: string[] = [];
    let letArchiveFinish = () => {};
    const archiveHeld = new Promise<void>((resolve) => {
      letArchiveFinish = resolve;
    });
    const { request, calls, archiveDir } = setup(
      async (spec) => {
        order.push(`run ${spec.prompt}`);
        return ok(spec);
      },
      Promise.resolve(),
      (archive) => ({
        ...archive,
        save: async (id, file) => {
          await archiveHeld;
          await archive.save(id, file);
          order.push('archived');
        },
      }),
    );
    const first = await request('/api/task', body({ message: 'one' }));
    const reader = first.body!.getReader();
    let seen = '';
    while (!seen.includes('"type":"result"')) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended before its result');
      seen += new TextDecoder().decode(value);
    }
    // The result is out while the archive is still being written.
    expect(order).toEqual(['run one']);
    expect(existsSync(join(archiveDir, `${body().session_id}.jsonl`))).toBe(false);
    expect((await request('/api/task/ex-1/cancel', undefined)).status).toBe(404);

    let answered = false;
    const second = Promise.resolve(
      request('/api/task', body({ execution_id: 'ex-2', resume: true, message: 'two' })),
    );
    void second.then(() => {
      answered = true;
    });
    for (let i = 0; i < 20 && !answered; i++) await new Promise(setImmediate);
    expect(answered).toBe(false);
    expect(calls).toHaveLength(1);

    letArchiveFinish();
    expect((await reader.read()).done).toBe(true);
    const next = await second;
    expect(next.status).toBe(200);
    expect((await events(next)).at(-1)).toMatchObject({ type: 'result', status: 'success' });
    expect(order).toEqual(['run one', 'archived', 'run two', 'archived']);
  });

  it('lets a fork read a session another turn is writing, without touching its live last line', async () => {
    const { request, runtime, calls } = setup(async (spec, io) => {
      if (!spec.forkSession) await untilAborted(io);
      return { ...ok(spec), sessionId: spec.forkSession ? 'forked-2' : spec.sessionId };
    });
    const writer = await request('/api/task', body());
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const source = runtime.transcriptPath(body().session_id);
    appendFileSync(source, '{"being":"writ');
    const fork = await request('/api/task', body({ execution_id: 'ex-2', resume: true, fork_session: true }));
    expect(fork.status).toBe(200);
    expect((await events(fork)).at(-1)).toMatchObject({ status: 'success', session_id: 'forked-2' });
    expect(readFileSync(source, 'utf8')).toBe('{"turn":1}\n{"being":"writ');
    expect((await request('/api/task/ex-1/cancel', undefined)).status).toBe(202);
    expect((await events(writer)).at(-1)).toMatchObject({ status: 'cancelled' });
  });

  it('repairs the source of a fork when nobody is writing it', async () => {
    const { request, runtime } = setup(async (spec) => ({ ...ok(spec), sessionId: 'forked-1' }));
    const source = runtime.transcriptPath(body().session_id);
    mkdirSync(join(source, '..'), { recursive: true });
    writeFileSync(source, '{"turn":1}\n{"torn');
    const fork = await request('/api/task', body({ resume: true, fork_session: true }));
    const list = await events(fork);
    expect(list).toContainEqual(expect.objectContaining({ type: 'error', code: 'transcript_repaired' }));
    expect(readFileSync(source, 'utf8')).toBe('{"turn":1}\n');
  });

  it('answers 409 conflict when the same execution id is started twice', async () => {
    const { request } = setup(async (spec, io) => {
      await untilAborted(io);
      return ok(spec);
    });
    const first = await request('/api/task', body());
    const again = await request('/api/task', body({ session_id: 'another-session' }));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'conflict' } });
    await request('/api/task/ex-1/cancel', undefined);
    await events(first);
  });

  it('answers 404 when cancelling an unknown execution', async () => {
    const response = await setup().request('/api/task/ex-9/cancel', undefined);
    expect(response.status).toBe(404);
  });

  it('ends a run that outlives its timeout as timeout', async () => {
    const { request } = setup(async (spec, io) => {
      await untilAborted(io);
      return ok(spec);
    });
    const list = await events(await request('/api/task', body({ timeout_seconds: 1 })));
    expect(list.at(-1)).toMatchObject({ type: 'result', status: 'timeout', error: { code: 'timeout' } });
  });

  it('answers session_expired without running the CLI when the transcript and its archive are gone', async () => {
    const { request, calls, ledger } = setup();
    await ledger.add(body().session_id);
    const list = await events(await request('/api/task', body({ resume: true })));
    expect(list.at(-1)).toMatchObject({
      status: 'failed',
      error: { code: 'session_expired' },
      session_id: null,
    });
    expect(calls).toHaveLength(0);
  });

  it('does not start the CLI for a turn cancelled while its transcript was being prepared', async () => {
    let open = () => {};
    const { request, calls } = setup(undefined, new Promise<void>((resolve) => (open = resolve)));
    const response = await request('/api/task', body());
    expect((await request('/api/task/ex-1/cancel', undefined)).status).toBe(202);
    open();
    expect((await events(response)).at(-1)).toMatchObject({ status: 'cancelled' });
    expect(calls).toHaveLength(0);
  });

  it('reports session state: present, archived, missing', async () => {
    const { request, runtime, archiveDir } = setup();
    const id = body().session_id;
    expect(await (await request(`/api/sessions/${id}`)).json()).toEqual({ id, state: 'missing' });
    mkdirSync(archiveDir, { recursive: true });
    writeFileSync(join(archiveDir, `${id}.jsonl`), '{}\n');
    expect(await (await request(`/api/sessions/${id}`)).json()).toEqual({ id, state: 'archived' });
    mkdirSync(join(runtime.transcriptPath(id), '..'), { recursive: true });
    writeFileSync(runtime.transcriptPath(id), '{}\n');
    expect(await (await request(`/api/sessions/${id}`)).json()).toEqual({ id, state: 'present' });
    expect((await request('/api/sessions/dispatched')).status).toBe(400);
  });

  it('answers health without a token', async () => {
    const response = await setup().app.request('/health');
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});
