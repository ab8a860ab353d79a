import { buildClaudeArgs } from './claude-args';
import { startCliSession } from './cli-process';
import type { RunIo, RunSpec, WarmProcess, WarmTurn } from './runtime';
import { createStreamParser } from './stream-parser';

/** Spawn settings of the claude runtime that a warm process needs (see claude.ts). */
export interface WarmClaudeSettings {
  bin: string;
  workdir: string;
  env: Record<string, string>;
  killGraceMs: number;
}

interface CurrentTurn {
  parser: ReturnType<typeof createStreamParser>;
  io: RunIo;
  sawLine: boolean;
  done(turn: WarmTurn): void;
}

/** A finished turn did not end the process, so there is no exit to report yet. */
const RUNNING = { exitCode: null, signal: null, stderrTail: '', spawnError: null };

/** One stream-json user message: what claude reads from stdin with `--input-format stream-json`. */
export const userMessageLine = (prompt: string): string =>
  JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: prompt }] } });

/**
 * `claude --print --input-format stream-json …` kept alive between turns. Each turn ends at the
 * CLI's `result` line; stdout lines outside a turn belong to no turn and are dropped, so events of
 * turn N can never reach turn N+1. Cancel and timeout kill the process: the transcript on disk
 * already holds the cancelled prompt, and the next turn resumes it cold.
 */
export const startWarmClaude = (settings: WarmClaudeSettings, spec: RunSpec): WarmProcess => {
  let current: CurrentTurn | null = null;
  let turns = 0;
  const session = startCliSession({
    bin: settings.bin,
    args: buildClaudeArgs(spec, { streamInput: true }),
    cwd: settings.workdir,
    env: settings.env,
    killGraceMs: settings.killGraceMs,
    onLine: (line) => {
      const turn = current;
      if (!turn) return;
      turn.sawLine = true;
      for (const event of turn.parser.push(line)) turn.io.emit(event);
      if (turn.parser.state.result) {
        current = null;
        turn.done({ outcome: turn.parser.finish(RUNNING), delivered: true });
      }
    },
  });
  const exited = session.exited.then((exit) => {
    const turn = current;
    current = null;
    turn?.done({ outcome: turn.parser.finish(exit), delivered: turn.sawLine });
  });

  return {
    pid: session.pid,
    get alive() {
      return session.alive;
    },
    get turns() {
      return turns;
    },
    turn: (prompt, io) => {
      if (current) return Promise.reject(new Error('A warm process serves one turn at a time'));
      turns += 1;
      return new Promise<WarmTurn>((resolve) => {
        const onAbort = () => void session.stop();
        current = {
          parser: createStreamParser(),
          io,
          sawLine: false,
          done: (turn) => {
            io.signal.removeEventListener('abort', onAbort);
            resolve(turn);
          },
        };
        if (io.signal.aborted) {
          onAbort();
          return;
        }
        io.signal.addEventListener('abort', onAbort, { once: true });
        // A dead stdin means the process is exiting; `exited` settles the turn as undelivered.
        session.write(userMessageLine(prompt));
      });
    },
    close: async () => {
      await session.stop();
      await exited;
    },
    exited,
  };
};
