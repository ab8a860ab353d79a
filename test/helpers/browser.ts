import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { buildWebIfStale } from '../../infra/local/src/web-build';
import { startLocalStack, type TestStack, type TestStackOptions } from './local-stack';
import { chromiumPath } from './system-packages';

/** Debian's Chromium, headless, with nothing reaching out to the (closed) network. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface BrowserRig {
  readonly stack: TestStack;
  readonly browser: Browser;
  /** A full-page screenshot under test-results/<suite>/. */
  shot(page: Page, name: string): Promise<Buffer>;
  /** A fresh browser context signed in through the dev identity provider, on the agents page. */
  signIn(email: string): Promise<Page>;
  close(): Promise<void>;
}

/** The built SPA on a fresh local stack, and a Chromium to drive it. */
export async function startBrowserRig(suite: string, options: TestStackOptions = {}): Promise<BrowserRig> {
  const shots = resolve('test-results', suite);
  await buildWebIfStale(resolve('web'), () => {});
  await mkdir(shots, { recursive: true });
  const stack = await startLocalStack(options);
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  } catch (e) {
    // The suite's afterAll never sees a rig that failed to start: stop what was started here.
    await stack.stop();
    throw e;
  }
  return {
    stack,
    browser,
    shot: (page, name) => page.screenshot({ path: `${shots}/${name}.png`, fullPage: true }),
    async signIn(email) {
      const page = await (await browser.newContext()).newPage();
      await page.goto(`${stack.url}/login`);
      await page.getByTestId('login-email').fill(email);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('agent-row').first().waitFor();
      return page;
    },
    async close() {
      await browser.close();
      await stack.stop();
    },
  };
}
