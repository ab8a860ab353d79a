import { type ExecFileSyncOptions, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * What the tests need from the machine beyond npm: Java for DynamoDB Local, bubblewrap for the
 * agents' sandbox, Chromium for the browser suites. The test command installs the missing ones
 * with apt (Debian, as root), the way `.ci/run` used to; elsewhere it stops before starting
 * anything and says in one line what to install.
 */
export interface SystemNeed {
  readonly what: string;
  readonly aptPackage: string;
  present(): boolean;
}

/** The browser the suites drive; REPRISE_CHROMIUM points them at another (or a missing) one. */
export const chromiumPath = (env: NodeJS.ProcessEnv = process.env): string =>
  env.REPRISE_CHROMIUM || '/usr/bin/chromium';

const onPath = (bin: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

export const JAVA: SystemNeed = {
  what: 'Java 17',
  aptPackage: 'openjdk-17-jre-headless',
  present: () => onPath('java'),
};
export const BWRAP: SystemNeed = {
  what: 'bubblewrap',
  aptPackage: 'bubblewrap',
  present: () => existsSync('/usr/bin/bwrap'),
};
export const chromium = (env: NodeJS.ProcessEnv = process.env): SystemNeed => ({
  what: `Chromium at ${chromiumPath(env)}`,
  aptPackage: 'chromium',
  present: () => existsSync(chromiumPath(env)),
});

export interface Machine {
  readonly isRoot: boolean;
  readonly hasApt: boolean;
  /** A browser path chosen by REPRISE_CHROMIUM is the user's: apt cannot put one there. */
  readonly customBrowser: boolean;
  install(packages: readonly string[]): void;
}

export const thisMachine = (env: NodeJS.ProcessEnv = process.env): Machine => ({
  isRoot: process.getuid?.() === 0,
  hasApt: onPath('apt-get'),
  customBrowser: Boolean(env.REPRISE_CHROMIUM),
  install(packages) {
    process.stderr.write(`test setup: installing ${packages.join(' ')} with apt-get…\n`);
    const opts: ExecFileSyncOptions = {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    };
    execFileSync('apt-get', ['update', '-qq'], opts);
    execFileSync('apt-get', ['install', '-y', '-qq', ...packages], opts);
  },
});

/**
 * Installs what is missing, or returns the one line saying what to install (null when all is
 * there). Pure decision over `machine`, so the refusal path is testable on a machine that has it all.
 */
export function provide(needs: readonly SystemNeed[], machine: Machine): string | null {
  const missing = needs.filter((n) => !n.present());
  if (missing.length === 0) return null;
  const browserPinned = machine.customBrowser && missing.some((n) => n.aptPackage === 'chromium');
  if (machine.isRoot && machine.hasApt && !browserPinned) {
    machine.install(missing.map((n) => n.aptPackage));
    const still = missing.filter((n) => !n.present());
    if (still.length === 0) return null;
    return `the tests need ${still.map((n) => n.what).join(', ')}; apt-get install ${still.map((n) => n.aptPackage).join(' ')} did not provide it`;
  }
  if (browserPinned)
    return `the tests need ${missing.map((n) => n.what).join(', ')} (REPRISE_CHROMIUM names a browser that is not there)`;
  return `the tests need ${missing.map((n) => n.what).join(', ')}: install ${missing.map((n) => n.aptPackage).join(' ')} (e.g. sudo apt-get install -y ${missing.map((n) => n.aptPackage).join(' ')})`;
}

/**
 * For a vitest globalSetup: every need of every project in this run, checked before any setup
 * starts a process, so a refusal leaves nothing behind.
 */
export function provideOrExit(projectNames: readonly string[]): void {
  const needs: SystemNeed[] = [];
  if (projectNames.some((n) => n === 'integration' || n === 'e2e')) needs.push(JAVA, BWRAP);
  if (projectNames.includes('e2e')) needs.push(chromium());
  const refusal = provide(needs, thisMachine());
  if (refusal === null) return;
  process.stderr.write(`reprise tests: ${refusal}\n`);
  process.exit(1);
}
