import { randomUUID } from 'node:crypto';
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
  /** The uuid of this turn's message; the CLI echoes it back when it reads the message. */
  uuid: string;
  /** Output belongs to this turn from the echo on (the first turn: from the start). */
  open: boolean;
  sawLine: boolean;
  done(turn: WarmTurn): void;
}

/** A finished turn did not end the process, so there is no exit to report yet. */
const RUNNING = { exitCode: null, signal: null, stderrTail: '', spawnError: null };

/** One stream-json user message: what claude reads from stdin with `--input-format stream-json`. */
export const userMessageLine = (prompt: string, uuid: string): string =>
  JSON.stringify({
    type: 'user',
    uuid,
    message: { role: 'user', content: [{ type: 'text', text: prompt }] },
  });

/** `--replay-user-messages` prints each message it read back, with the uuid we gave it. */
const isEchoOf = (line: string, uuid: string): boolean => {
  if (!line.includes(uuid)) return false;
  try {
    const msg = JSON.parse(line) as { type?: unknown; uuid?: unknown; isReplay?: unknown };
    return msg.type === 'user' && msg.uuid === uuid && msg.isReplay === true;
  } catch {
    return false;
  }
};

/**
 * `claude --print --input-format stream-json …` kept alive between turns. A turn's output begins
 * at the echo of its own message and ends at the CLI's `result` line; lines outside that window
 * (the CLI prints some between turns) belong to no turn and are dropped, so events of turn N can
 * never reach turn N+1, even if they arrive after turn N+1 was written. Cancel and timeout kill the process: the transcript on disk
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
      if (!turn.open) {
        turn.open = isEchoOf(line, turn.uuid);
        turn.sawLine = turn.open;
        return;
      }
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
      if (!session.alive) {
        // Died since it was pooled: nothing will read this message.
        return session.exited.then((exit) => ({
          outcome: createStreamParser().finish(exit),
          delivered: false,
        }));
      }
      const uuid = randomUUID();
      const first = turns === 1;
      return new Promise<WarmTurn>((resolve) => {
        const onAbort = () => void session.stop();
        current = {
          parser: createStreamParser(),
          io,
          uuid,
          open: first,
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
        session.write(userMessageLine(prompt, uuid));
      });
    },
    close: async () => {
      await session.stop();
      await exited;
    },
    exited,
  };
};
