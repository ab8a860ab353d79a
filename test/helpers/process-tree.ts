import { readdirSync, readFileSync } from 'node:fs';

/** pid → parent pid for every process now (Linux /proc). */
const parents = (): Map<number, number> => {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      out.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited while we looked
    }
  }
  return out;
};

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

/** The pids of `pids` still alive (zombies count as gone: they hold nothing). */
export const stillAlive = (pids: readonly number[]): number[] =>
  pids.filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
    } catch {
      return false;
    }
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
