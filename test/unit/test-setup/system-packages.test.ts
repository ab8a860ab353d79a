import { describe, expect, it } from 'vitest';
import { chromiumPath, type Machine, provide, type SystemNeed } from '../../helpers/system-packages';

/** A need whose presence the fake machine's apt flips on install. */
const need = (aptPackage: string, present = false) => {
  const state = { present };
  const n: SystemNeed = { what: aptPackage, aptPackage, present: () => state.present };
  return { n, state };
};

const machine = (
  over: Partial<Machine>,
  onInstall: (pkgs: readonly string[]) => void = () => {},
): Machine => ({
  isRoot: true,
  hasApt: true,
  customBrowser: false,
  install: onInstall,
  ...over,
});

describe('what the test command provides', () => {
  it('does nothing when everything is there', () => {
    const installed: string[] = [];
    expect(
      provide(
        [need('java', true).n],
        machine({}, (p) => installed.push(...p)),
      ),
    ).toBeNull();
    expect(installed).toEqual([]);
  });

  it('installs only what is missing with apt when root', () => {
    const java = need('openjdk-17-jre-headless', true);
    const browser = need('chromium');
    const installed: string[] = [];
    const refusal = provide(
      [java.n, browser.n],
      machine({}, (pkgs) => {
        installed.push(...pkgs);
        browser.state.present = true;
      }),
    );
    expect(refusal).toBeNull();
    expect(installed).toEqual(['chromium']);
  });

  it.each([
    ['not root', { isRoot: false }],
    ['no apt', { hasApt: false }],
  ])('refuses in one line naming the packages when %s', (_name, over) => {
    const installed: string[] = [];
    const refusal = provide(
      [need('chromium').n, need('bubblewrap').n],
      machine(over, (p) => installed.push(...p)),
    );
    expect(installed).toEqual([]);
    expect(refusal).toMatch(/install chromium bubblewrap/);
    expect(refusal).not.toContain('\n');
  });

  it('never installs over a browser chosen with REPRISE_CHROMIUM', () => {
    const installed: string[] = [];
    const refusal = provide(
      [need('chromium').n],
      machine({ customBrowser: true }, (p) => installed.push(...p)),
    );
    expect(installed).toEqual([]);
    expect(refusal).toContain('REPRISE_CHROMIUM');
  });

  it('says so when apt ran but the package is still missing', () => {
    expect(provide([need('chromium').n], machine({}))).toMatch(/did not provide/);
  });

  it('takes the browser path from REPRISE_CHROMIUM, else Debian’s', () => {
    expect(chromiumPath({})).toBe('/usr/bin/chromium');
    expect(chromiumPath({ REPRISE_CHROMIUM: '/opt/c/chrome' })).toBe('/opt/c/chrome');
  });
});
