import type { RunIo, RunOutcome, RunSpec, Runtime, WarmProcess } from './runtime';
import type { WarmPool } from './warm-pool';

/** Everything a process is started with besides the session: a turn asking for other flags needs another process. */
export const flagsKey = (spec: RunSpec): string =>
  JSON.stringify([
    spec.model ?? null,
    spec.systemPrompt ?? null,
    spec.allowedTools ?? null,
    spec.maxTurns ?? null,
  ]);

/**
 * Puts a warm pool behind the same Runtime interface. A plain resume of a session whose process is
 * idle in the pool (same flags) is written to that process; everything else — new sessions, forks,
 * a process that was evicted, expired, crashed or started with other flags — starts a process the
 * way a cold turn would (`--session-id`, `--resume`, `--resume --fork-session`), which then stays
 * warm under the id its turn returned. Runtimes without `startWarm` are returned unchanged.
 */
export const withWarmPool = (runtime: Runtime, pool: WarmPool): Runtime => {
  const startWarm = runtime.startWarm;
  if (!startWarm || pool.size === 0) return runtime;

  const settle = (process: WarmProcess, flags: string, outcome: RunOutcome, io: RunIo): RunOutcome => {
    // Only a clean turn leaves a process worth keeping; after anything else the cold path is safe.
    const keep = !io.signal.aborted && outcome.status === 'success' && outcome.sessionId !== null;
    if (keep && outcome.sessionId) pool.put(outcome.sessionId, flags, process);
    else void process.close();
    return outcome;
  };

  return {
    name: runtime.name,
    transcriptPath: (sessionId) => runtime.transcriptPath(sessionId),
    startWarm,
    run: async (spec, io) => {
      const flags = flagsKey(spec);
      const idle = spec.resume && !spec.forkSession ? pool.take(spec.sessionId, flags) : null;
      if (idle) {
        const turn = await idle.turn(spec.prompt, io);
        if (turn.delivered || io.signal.aborted) return settle(idle, flags, turn.outcome, io);
        // It died before reading the message (crashed while idle): the transcript is intact on
        // disk, so the same turn runs cold instead.
        void idle.close();
      }
      if (spec.keepWarm === false) return runtime.run(spec, io);
      const fresh = startWarm(spec);
      const turn = await fresh.turn(spec.prompt, io);
      return settle(fresh, flags, turn.outcome, io);
    },
  };
};
