import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after the command name: state, ppid, pgrp, …; null once gone. */
const statFields = (pid: number | string): string[] | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
};

const livePids = (): number[] =>
  readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number);

/** pid → parent pid for every process now (Linux /proc). */
const parents = (): Map<number, number> => {
  const out = new Map<number, number>();
  for (const pid of livePids()) {
    const fields = statFields(pid);
    if (fields) out.set(pid, Number(fields[1]));
  }
  return out;
};

/**
 * The process groups of `pids`. The agent server spawns every CLI run detached, so one run is
 * one group — however many processes bubblewrap and the CLI make of it.
 */
export const processGroups = (pids: readonly number[]): number[] => {
  const groups = new Set<number>();
  for (const pid of pids) {
    const fields = statFields(pid);
    // A process being reaped runs nothing.
    if (fields && fields[0] !== 'Z' && fields[0] !== 'X') groups.add(Number(fields[2]));
  }
  return [...groups];
};

/** Every live process of process group `group`. */
export const processesOfGroup = (group: number): number[] =>
  livePids().filter((pid) => {
    const fields = statFields(pid);
    return fields !== null && fields[0] !== 'Z' && Number(fields[2]) === group;
  });

/** Every process whose cwd is `dir` (and whose command line has `mentioning`, when given). */
export const processesIn = (dir: string, mentioning?: string): number[] =>
  livePids().filter((pid) => {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) !== dir) return false;
      return mentioning === undefined || readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(mentioning);
    } catch {
      return false;
    }
  });

/** Every live descendant of `root` (children, their children, …), not `root` itself. */
export const descendantsOf = (root: number): number[] => {
  const tree = parents();
  const found: number[] = [];
  let frontier = [root];
  while (frontier.length > 0) {
    const next = [...tree].filter(([, ppid]) => frontier.includes(ppid)).map(([pid]) => pid);
    found.push(...next);
    frontier = next;
  }
  return found;
};

/** Kernel clock ticks per second (`getconf CLK_TCK`): the unit of /proc/<pid>/stat's CPU times. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system, ms) spent so far by `root` and every live descendant of it, summed by
 * the role `roleOf` gives each pid. A descendant that exits between two readings takes its time
 * with it: measure spans in which none does.
 */
export const cpuMsByRole = (root: number, roleOf: (pid: number) => string): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const pid of [root, ...descendantsOf(root)]) {
    const fields = statFields(pid);
    if (!fields) continue;
    const role = roleOf(pid);
    // After the command name: utime and stime are fields 14 and 15 of the line, 12th and 13th here.
    const ticks = Number(fields[11]) + Number(fields[12]);
    out[role] = (out[role] ?? 0) + (ticks * 1000) / TICKS_PER_SECOND;
  }
  return out;
};

/** The command line of `pid` (NUL-separated arguments joined by spaces); empty once gone. */
export const commandLine = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
};

/** The pids of `pids` still alive (zombies count as gone: they hold nothing). */
export const stillAlive = (pids: readonly number[]): number[] =>
  pids.filter((pid) => {
    const fields = statFields(pid);
    return fields !== null && fields[0] !== 'Z';
  });

/** Last resort for a test's `finally`: SIGKILL whatever of `pids` is left. */
export const killAll = (pids: readonly number[]): void => {
  for (const pid of stillAlive(pids)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
};
