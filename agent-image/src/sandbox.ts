import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';

/**
 * Confines a CLI run locally with bubblewrap (in AWS the agent's container does it): a fresh root
 * that shows only the system's read-only programs, the CLI's own files, its HOME and its workdir.
 * `--unshare-pid` gives the run its own PID namespace, so when the CLI ends or is killed every
 * process it started ends with it — even one that called setsid or moved to another directory —
 * and `--die-with-parent` does the same if the agent server itself dies. The network is shared so
 * the model server (the scripted one on loopback) stays reachable.
 */
export const BWRAP = '/usr/bin/bwrap';

/** `AGENT_SANDBOX=none` runs unconfined (the container is the sandbox); anything else: bwrap if it works. */
export const sandboxWanted = (env: NodeJS.ProcessEnv = process.env): boolean => env.AGENT_SANDBOX !== 'none';

let probed: boolean | undefined;

/** Whether bubblewrap can make a PID namespace here (it needs root or unprivileged user namespaces). */
export const sandboxAvailable = (): boolean => {
  if (probed === undefined) {
    try {
      execFileSync(BWRAP, ['--unshare-pid', '--die-with-parent', '--ro-bind', '/', '/', 'true'], {
        stdio: 'ignore',
        timeout: 10_000,
      });
      probed = true;
    } catch {
      probed = false;
    }
  }
  return probed;
};

/** System folders every program needs; on merged-/usr systems the top-level ones are symlinks. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64'];
/** Only what name resolution, TLS, users and time zones need from /etc. */
const ETC_FILES = [
  '/etc/resolv.conf',
  '/etc/hosts',
  '/etc/nsswitch.conf',
  '/etc/passwd',
  '/etc/group',
  '/etc/localtime',
  '/etc/ssl',
  '/etc/ca-certificates',
  '/etc/alternatives',
];

const isInside = (child: string, parent: string) => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

const findOnPath = (bin: string, path: string): string | null => {
  if (bin.includes(sep)) return bin;
  for (const dir of path.split(delimiter)) {
    const candidate = join(dir, bin);
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
};

/** The outermost node_modules holding the CLI (its native binary and packages live under it). */
const cliRoot = (bin: string): string => {
  let dir = dirname(realpathSync(bin));
  let root = dirname(realpathSync(bin));
  for (; dir !== dirname(dir); dir = dirname(dir)) if (dir.endsWith(`${sep}node_modules`)) root = dir;
  return root;
};

export interface SandboxSpec {
  readonly bin: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly home: string;
  readonly path: string;
}

/** The bwrap argv that runs `bin args` confined; the caller spawns it with the same env and cwd. */
export const sandboxed = (spec: SandboxSpec): { bin: string; args: string[] } | null => {
  const resolved = findOnPath(spec.bin, spec.path);
  if (!resolved || !existsSync(resolved)) return null;
  const out = [
    '--die-with-parent',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
  ];
  for (const dir of SYSTEM_DIRS) {
    if (!existsSync(dir)) continue;
    const stat = lstatSync(dir);
    if (stat.isSymbolicLink()) out.push('--symlink', readlinkSync(dir), dir);
    else out.push('--ro-bind', dir, dir);
  }
  for (const file of ETC_FILES) out.push('--ro-bind-try', file, file);
  const readOnly = new Set([cliRoot(resolved), dirname(realpathSync(process.execPath))]);
  for (const dir of readOnly) if (!SYSTEM_DIRS.some((s) => isInside(dir, s))) out.push('--ro-bind', dir, dir);
  // Bound after the read-only folders, so a home inside one of them is still writable.
  out.push('--bind', spec.home, spec.home);
  if (!isInside(spec.cwd, spec.home)) out.push('--bind', spec.cwd, spec.cwd);
  out.push('--chdir', spec.cwd, '--', resolved, ...spec.args);
  return { bin: BWRAP, args: out };
};
