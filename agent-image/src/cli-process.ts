import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { sandboxAvailable, sandboxed, sandboxWanted } from './sandbox';

export interface CliInvocation {
  bin: string;
  args: string[];
  cwd: string;
  /** The complete environment: nothing of the server's own env (its token, AWS keys) leaks in. */
  env: Record<string, string>;
  input: string;
  signal: AbortSignal;
  killGraceMs: number;
  onLine(line: string): void;
}

export interface CliExit {
  exitCode: number | null;
  signal: string | null;
  stderrTail: string;
  spawnError: string | null;
}

const STDERR_TAIL = 4_000;

/** Signals the whole process group: the CLI's tool subprocesses must die with it. */
const killGroup = (pid: number | undefined, signal: NodeJS.Signals) => {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
};

/** Confined when bubblewrap works here (see sandbox.ts); as it is when turned off or unavailable. */
const command = (
  run: Pick<CliInvocation, 'bin' | 'args' | 'cwd' | 'env'>,
): { bin: string; args: string[]; confined: boolean } => {
  const spec =
    sandboxWanted() && sandboxAvailable()
      ? sandboxed({
          bin: run.bin,
          args: run.args,
          cwd: run.cwd,
          home: run.env.HOME ?? run.cwd,
          path: run.env.PATH ?? '',
        })
      : null;
  // A missing binary is not confined, so the spawn itself reports ENOENT.
  return spec ? { ...spec, confined: true } : { bin: run.bin, args: run.args, confined: false };
};

/** Every pid of /proc (Linux); empty elsewhere. */
const allPids = (): string[] => {
  try {
    return readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
};

/** Marks every process of one run through its inherited environment, whatever it does to its group. */
const RUN_MARK = 'REPRISE_CLI_RUN';

/**
 * Unconfined runs have no PID namespace: a tool that called setsid (or daemonized) leaves the
 * process group, but it still carries the run's mark in its environment. SIGKILL all of those.
 */
const killMarked = (mark: string) => {
  const needle = `${RUN_MARK}=${mark}\0`;
  for (const pid of allPids()) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').includes(needle))
        process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone, or not ours to read
    }
  }
};

/**
 * A graceful stop of a confined run: SIGTERM to the CLI and its tools, but not to bubblewrap and
 * its PID-namespace init, whose death would SIGKILL everything at once. Linux only, like bwrap.
 */
const terminateInside = (bwrapPid: number) => {
  const stats = allPids()
    .map((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return { pid: Number(pid), ppid: Number(ppid), pgrp: Number(pgrp) };
      } catch {
        return null;
      }
    })
    .filter((s) => s !== null && s.pgrp === bwrapPid && s.pid !== bwrapPid);
  const init = new Set(stats.filter((s) => s!.ppid === bwrapPid).map((s) => s!.pid));
  for (const s of stats) {
    if (init.has(s!.pid)) continue;
    try {
      process.kill(s!.pid, 'SIGTERM');
    } catch {
      // gone already
    }
  }
};

type Spawned = Omit<CliInvocation, 'input' | 'signal'> & { stdin: { input: string } | 'pipe' };

/**
 * The only execa call in the repository: argument array, no shell, own process group, confined
 * (bubblewrap) when it can be and marked, so every process of the run can be found and ended.
 */
const spawnCli = (run: Spawned) => {
  const { bin, args, confined } = command(run);
  const mark = randomUUID();
  const child = execa(bin, args, {
    cwd: run.cwd,
    env: { ...run.env, [RUN_MARK]: mark },
    extendEnv: false,
    ...(run.stdin === 'pipe' ? { stdin: 'pipe' as const } : { input: run.stdin.input }),
    detached: true,
    cleanup: false,
    buffer: false,
    reject: false,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let hardKill: NodeJS.Timeout | undefined;
  let stderrTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });
  const lines = (async () => {
    if (!child.stdout) return;
    const reader = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of reader) run.onLine(line);
  })();
  return {
    child,
    /** SIGTERM (inside the sandbox, so tools get it first), SIGKILL after the grace period. */
    terminate: () => {
      if (hardKill !== undefined) return;
      if (confined && child.pid !== undefined) terminateInside(child.pid);
      else killGroup(child.pid, 'SIGTERM');
      hardKill = setTimeout(() => {
        killGroup(child.pid, 'SIGKILL');
        killMarked(mark);
      }, run.killGraceMs);
    },
    /** Settles once the CLI exited and every stdout line went to `onLine`. */
    exited: (async (): Promise<CliExit> => {
      const result = await child;
      await lines.catch(() => {});
      clearTimeout(hardKill);
      // Background processes the CLI left behind, in its group or out of it, must not outlive it.
      killGroup(child.pid, 'SIGKILL');
      killMarked(mark);
      const spawnError =
        result.failed && result.exitCode === undefined && !result.signal ? result.shortMessage : null;
      return {
        exitCode: result.exitCode ?? null,
        signal: result.signal ?? null,
        stderrTail,
        spawnError: spawnError ? spawnError.slice(0, 500) : null,
      };
    })(),
  };
};

/** One cold turn: the prompt on stdin, stdout lines to `onLine`, ended by `signal` or its own exit. */
export const runCli = async (run: CliInvocation): Promise<CliExit> => {
  const cli = spawnCli({ ...run, stdin: { input: run.input } });
  if (run.signal.aborted) cli.terminate();
  else run.signal.addEventListener('abort', cli.terminate, { once: true });
  try {
    return await cli.exited;
  } finally {
    run.signal.removeEventListener('abort', cli.terminate);
  }
};

export type CliSessionInvocation = Omit<CliInvocation, 'input' | 'signal'>;

/** A CLI that stays alive and reads one line per message on stdin (stream-json input). */
export interface CliSession {
  readonly pid: number | undefined;
  readonly alive: boolean;
  /** Writes one line to stdin; false when stdin is already closed. */
  write(line: string): boolean;
  /** SIGTERM to the group, SIGKILL after the grace period; resolves with the exit. */
  stop(): Promise<CliExit>;
  /** Settles after the process exited and every stdout line went to `onLine`. */
  readonly exited: Promise<CliExit>;
}

/**
 * Same spawn rules as `runCli` (confined and marked, so a warm process's tools die with it too),
 * but stdin stays open for later messages. Closing our end (or this server dying) ends the CLI.
 */
export const startCliSession = (run: CliSessionInvocation): CliSession => {
  const cli = spawnCli({ ...run, stdin: 'pipe' });
  const { child } = cli;
  let alive = true;
  // A write racing the process's death must not crash the server (EPIPE).
  child.stdin?.on('error', () => {});
  const exited = cli.exited.finally(() => {
    alive = false;
  });
  void child.finally(() => {
    alive = false;
  });
  return {
    pid: child.pid,
    get alive() {
      return alive;
    },
    write: (line) => {
      const stdin = child.stdin;
      if (!alive || !stdin || stdin.destroyed || stdin.writableEnded) return false;
      stdin.write(line.endsWith('\n') ? line : `${line}\n`);
      return true;
    },
    stop: () => {
      if (alive) cli.terminate();
      return exited;
    },
    exited,
  };
};
