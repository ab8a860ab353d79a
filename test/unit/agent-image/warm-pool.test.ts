import type {
  RunIo,
  RunOutcome,
  RunSpec,
  Runtime,
  WarmProcess,
  WarmTurn,
} from '@reprise/agent-image/runtime';
import { WarmPool } from '@reprise/agent-image/warm-pool';
import { flagsKey, withWarmPool } from '@reprise/agent-image/warm-runtime';
import { silentLogger } from '@reprise/functions/lib/log';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { successOutcome } from '../../helpers/fixtures';

const success = (sessionId: string): RunOutcome => successOutcome(sessionId);

let nextPid = 100;
/** A stand-in process: answers each turn with `answer`, or dies unread when `dead`. */
const fakeProcess = (answer: (prompt: string) => WarmTurn) => {
  let alive = true;
  let turns = 0;
  let exit: () => void = () => {};
  const exited = new Promise<void>((resolve) => {
    exit = resolve;
  });
  const process = {
    pid: nextPid++,
    get alive() {
      return alive;
    },
    get turns() {
      return turns;
    },
    turn: async (prompt: string) => {
      turns += 1;
      return answer(prompt);
    },
    close: vi.fn(async () => {
      alive = false;
      exit();
    }),
    exited,
    die: () => {
      alive = false;
      exit();
    },
  };
  return process satisfies WarmProcess;
};

const spec = (sessionId: string, extra: Partial<RunSpec> = {}): RunSpec => ({
  prompt: 'hi',
  sessionId,
  resume: true,
  forkSession: false,
  ...extra,
});

const io = (): RunIo => ({ signal: new AbortController().signal, emit: () => {} });

afterEach(() => vi.useRealTimers());

describe('warm pool', () => {
  it('evicts the least recently used idle process beyond its size', () => {
    const pool = new WarmPool({ size: 2, idleMs: 60_000, logger: silentLogger });
    const [a, b, c] = [1, 2, 3].map(() => fakeProcess(() => ({ outcome: success('x'), delivered: true })));
    pool.put('a', 'f', a!);
    pool.put('b', 'f', b!);
    expect(pool.take('a', 'f')).toBe(a);
    pool.put('a', 'f', a!);
    pool.put('c', 'f', c!);
    expect(pool.list().map((item) => item.session_id)).toEqual(['a', 'c']);
    expect(b!.close).toHaveBeenCalled();
    expect(a!.close).not.toHaveBeenCalled();
  });

  it('never hands out a process started with other flags, and stops it', () => {
    const pool = new WarmPool({ size: 2, idleMs: 60_000, logger: silentLogger });
    const a = fakeProcess(() => ({ outcome: success('a'), delivered: true }));
    pool.put('a', flagsKey(spec('a', { model: 'm1' })), a);
    expect(pool.take('a', flagsKey(spec('a', { model: 'm2' })))).toBeNull();
    expect(a.close).toHaveBeenCalled();
    expect(pool.list()).toEqual([]);
  });

  it('stops a process idle for longer than idleMs', () => {
    vi.useFakeTimers();
    const pool = new WarmPool({ size: 2, idleMs: 1_000, logger: silentLogger });
    const a = fakeProcess(() => ({ outcome: success('a'), delivered: true }));
    pool.put('a', 'f', a);
    vi.advanceTimersByTime(999);
    expect(a.close).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2);
    expect(a.close).toHaveBeenCalled();
    expect(pool.list()).toEqual([]);
  });

  it('forgets a process that died while idle, and refuses new ones once closed', async () => {
    const pool = new WarmPool({ size: 2, idleMs: 60_000, logger: silentLogger });
    const a = fakeProcess(() => ({ outcome: success('a'), delivered: true }));
    pool.put('a', 'f', a);
    a.die();
    await a.exited;
    expect(pool.list()).toEqual([]);
    await pool.close();
    const b = fakeProcess(() => ({ outcome: success('b'), delivered: true }));
    pool.put('b', 'f', b);
    expect(b.close).toHaveBeenCalled();
    expect(pool.list()).toEqual([]);
  });
});

describe('withWarmPool', () => {
  const runtimeWith = (start: (s: RunSpec) => WarmProcess): Runtime => ({
    name: 'fake',
    transcriptPath: (id) => `/t/${id}`,
    run: () => Promise.reject(new Error('the cold run is not used when startWarm exists')),
    startWarm: start,
  });

  it('returns a runtime without startWarm unchanged, and any runtime when the size is 0', () => {
    const cold: Runtime = { name: 'cold', transcriptPath: (id) => id, run: async () => success('x') };
    const pool = new WarmPool({ size: 4, idleMs: 1, logger: silentLogger });
    expect(withWarmPool(cold, pool)).toBe(cold);
    const warm = runtimeWith(() => fakeProcess(() => ({ outcome: success('x'), delivered: true })));
    expect(withWarmPool(warm, new WarmPool({ size: 0, idleMs: 1, logger: silentLogger }))).toBe(warm);
  });

  it('runs the same turn on a fresh process when the idle one died before reading it', async () => {
    const pool = new WarmPool({ size: 2, idleMs: 60_000, logger: silentLogger });
    const dead = fakeProcess(() => ({ outcome: { ...success('s'), status: 'failed' }, delivered: false }));
    pool.put('s', flagsKey(spec('s')), dead);
    const fresh = fakeProcess(() => ({ outcome: success('s'), delivered: true }));
    const started: RunSpec[] = [];
    const runtime = withWarmPool(
      runtimeWith((s) => {
        started.push(s);
        return fresh;
      }),
      pool,
    );
    const outcome = await runtime.run(spec('s'), io());
    expect(outcome.status).toBe('success');
    expect(started).toEqual([spec('s')]);
    expect(dead.close).toHaveBeenCalled();
    expect(pool.list()).toEqual([expect.objectContaining({ session_id: 's', pid: fresh.pid })]);
  });

  it('keeps a fork’s process under the id its turn returned, and drops a failed turn’s process', async () => {
    const pool = new WarmPool({ size: 2, idleMs: 60_000, logger: silentLogger });
    const fork = fakeProcess(() => ({ outcome: success('forked'), delivered: true }));
    const failing = fakeProcess(() => ({ outcome: { ...success('x'), status: 'failed' }, delivered: true }));
    const queue = [fork, failing];
    const runtime = withWarmPool(
      runtimeWith(() => queue.shift()!),
      pool,
    );
    await runtime.run(spec('source', { forkSession: true }), io());
    expect(pool.list().map((item) => item.session_id)).toEqual(['forked']);
    await runtime.run(spec('x', { resume: false }), io());
    expect(failing.close).toHaveBeenCalled();
    expect(pool.list().map((item) => item.session_id)).toEqual(['forked']);
  });
});
