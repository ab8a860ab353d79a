import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from '../helpers/axe';
import { type BrowserRig, startBrowserRig } from '../helpers/browser';
import { assistant } from '../helpers/chat-steps';
import { clientFor } from '../helpers/local-stack';

const TIMEOUT = 60_000;
/** A syntactically valid execution id that names nothing. */
const BOGUS_EXEC = '01JZZZZZZZZZZZZZZZZZZZZZZZ';
const SIZES = [
  { label: 'desktop', width: 1280, height: 800 },
  { label: 'phone', width: 390, height: 844 },
] as const;

let rig: BrowserRig;

/**
 * The page's globals, typed just enough for what these tests read (the test files have no DOM lib).
 * Cast inline inside `page.evaluate`: the callback runs in the page, where no helper of this file exists.
 */
type BrowserGlobals = {
  innerWidth: number;
  document: {
    documentElement: { scrollWidth: number };
    activeElement: { tagName: string; textContent: string | null } | null;
  };
};

beforeAll(async () => {
  // The CLI retries a 529 ten times over about three minutes by default; two keep this test short.
  process.env.CLAUDE_CODE_MAX_RETRIES = '2';
  rig = await startBrowserRig('ux', { seedFailedRun: true });
}, 180_000);
afterAll(async () => {
  delete process.env.CLAUDE_CODE_MAX_RETRIES;
  await rig?.close();
});

/**
 * Every page state the tests visit, at desktop and phone width: nothing overflows sideways, a
 * screenshot under test-results/ux/, and axe-core finds nothing in light or dark.
 */
async function audit(page: Page, name: string) {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth,
      innerWidth: (globalThis as unknown as BrowserGlobals).innerWidth,
    }));
    expect(scrollWidth, `${name} overflows at ${size.width}px`).toBeLessThanOrEqual(innerWidth);
    await rig.shot(page, `${name}-${size.label}`);
    await page.emulateMedia({ colorScheme: 'dark' });
    await rig.shot(page, `${name}-${size.label}-dark`);
    await page.emulateMedia({ colorScheme: 'light' });
    await expectAccessible(page, `${name} at ${size.width}px`);
  }
  await page.setViewportSize({ width: SIZES[0].width, height: SIZES[0].height });
}

async function sendAndWait(page: Page, text: string) {
  const before = await assistant(page).count();
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-input').press('Enter');
  const reply = assistant(page).nth(before);
  await reply.locator('.typing').waitFor({ state: 'detached', timeout: TIMEOUT });
  return reply;
}

async function failedExecutionId(): Promise<string> {
  const { executions } = rig.stack.platform.core.stores;
  let id: string | undefined;
  await expect
    .poll(
      async () => {
        const page = await executions.listExecutionsByAgent('acme', 'demo', { limit: 20 });
        id = page.items.find((e) => e.status === 'failed')?.id;
        return id;
      },
      { timeout: TIMEOUT, interval: 250 },
    )
    .toBeTruthy();
  return id!;
}

const taskPosts = (page: Page) => {
  const posts: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && req.url().endsWith('/api/agents/demo/task')) posts.push(req.url());
  });
  return posts;
};

describe('the web app as a person uses it', () => {
  it('keeps a resumed chat in the URL: a reload shows the same conversation, not a new fork', async () => {
    const page = await rig.signIn('bob@acme.test');
    await audit(page, '01-agents');
    const execId = await failedExecutionId();
    await page.goto(`${rig.stack.url}/executions/${execId}`);
    await page.getByTestId('continue-as-chat').waitFor();
    await audit(page, '02-execution-failed');

    await page.getByTestId('continue-as-chat').click();
    await page.getByTestId('resume-banner').waitFor();
    await audit(page, '03-chat-resumed');
    const reply = await sendAndWait(page, 'what went wrong');
    expect(await reply.textContent()).toContain('Recap');
    await expect.poll(() => page.url()).toContain('chatId=');
    expect(page.url()).not.toContain('resumeSessionId');

    await page.reload();
    await expect.poll(() => page.getByTestId('chat-message').count(), { timeout: TIMEOUT }).toBe(2);
    expect(await page.getByTestId('chat-message').first().textContent()).toContain('what went wrong');
    await expect
      .poll(() => page.locator('[data-testid="chat-list-item"][aria-current="true"]').count())
      .toBe(1);
    await audit(page, '04-chat-after-reload');

    const bob = await clientFor(rig.stack.url, 'bob@acme.test');
    const exec = await bob.call('GET', `/api/executions/${execId}`);
    expect(exec.body.continued_in).toHaveLength(1);
  });

  it('follows a chat to its newest reply on a phone, above the pinned message box', async () => {
    const page = await rig.signIn('bob@acme.test');
    await page.setViewportSize({ width: SIZES[1].width, height: SIZES[1].height });
    await page.goto(`${rig.stack.url}/agents/demo?tab=chat`);
    await page.getByTestId('new-chat').click();
    let reply = await sendAndWait(page, 'one');
    for (const text of ['two', 'three', 'four', 'five', 'six']) reply = await sendAndWait(page, text);
    // Taller than the screen by now: on a phone the page scrolls, not the log, and it kept up.
    const inView = async () => {
      const [message, composer] = await Promise.all([
        reply.boundingBox(),
        page.locator('.composer').boundingBox(),
      ]);
      return (
        message !== null && composer !== null && message.y >= 0 && message.y + message.height <= composer.y
      );
    };
    await expect.poll(inView, { timeout: TIMEOUT }).toBe(true);
    expect(await reply.textContent()).toContain('six');
    await page.setViewportSize({ width: SIZES[0].width, height: SIZES[0].height });
  });

  it('moves focus to the main heading after each navigation', async () => {
    const page = await rig.signIn('bob@acme.test');
    await page
      .getByTestId('agent-row')
      .filter({ hasText: 'demo' })
      .getByRole('link', { name: 'demo' })
      .click();
    await expect
      .poll(() =>
        page.evaluate(() => {
          const el = (globalThis as unknown as BrowserGlobals).document.activeElement;
          return `${el?.tagName}:${el?.textContent}`;
        }),
      )
      .toBe('H1:demo');
    expect(await page.title()).toBe('demo · Reprise');

    await page.getByRole('tab', { name: 'Executions' }).click();
    await page.getByTestId('execution-row').first().waitFor({ timeout: TIMEOUT });
    await audit(page, '05-executions');
    await page.getByTestId('execution-row').first().getByRole('link').first().click();
    await page.getByTestId('execution-status').waitFor();
    await expect
      .poll(() =>
        page.evaluate(() => {
          const el = (globalThis as unknown as BrowserGlobals).document.activeElement;
          return `${el?.tagName}:${el?.textContent}`;
        }),
      )
      .toBe('H1:Execution');

    await page.goBack();
    await page.getByRole('tab', { name: 'Schedules' }).click();
    await page.getByText('No schedules for this agent.').waitFor();
    await audit(page, '06-schedules');
    await page.getByRole('button', { name: 'New schedule' }).click();
    await page.getByLabel(/^Cron/).fill('0 9 * * 1-5');
    await page.getByTestId('cron-next-runs').waitFor();
    await audit(page, '06-schedule-form');
  });

  it('refuses a bogus deep link at once, before anything is sent', async () => {
    const page = await rig.signIn('bob@acme.test');
    const posts = taskPosts(page);
    await page.goto(
      `${rig.stack.url}/agents/demo?tab=chat&resumeSessionId=bogus-session&executionId=${BOGUS_EXEC}`,
    );
    const refused = page.getByTestId('resume-refused');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('cannot be continued');
    expect(await page.getByTestId('resume-banner').count()).toBe(0);
    await page.getByTestId('chat-input').fill('what went wrong');
    expect(await page.getByTestId('chat-send').isDisabled()).toBe(true);
    await page.getByTestId('chat-input').press('Enter');
    expect(posts).toHaveLength(0);
    await audit(page, '07-resume-refused');
  });

  it('keeps a stopped turn in the log, marked stopped', async () => {
    const page = await rig.signIn('bob@acme.test');
    await page.goto(`${rig.stack.url}/agents/demo?tab=chat`);
    await page.getByTestId('new-chat').click();
    // A long unbroken path rides along: it must wrap inside its bubble, even at 390 px (audit below).
    const path = `/var/lib/agents/${'a1b2c3d4'.repeat(24)}/transcript.jsonl`;
    await page.getByTestId('chat-input').fill(`sleep: 30\n${path}`);
    await page.getByTestId('chat-input').press('Enter');
    await page.getByRole('button', { name: 'Stop turn' }).waitFor();
    await page.getByTestId('chat-input').press('Escape');
    await page.getByTestId('turn-stopped').waitFor();
    expect(await page.getByTestId('chat-message').first().textContent()).toContain(path);
    expect(await page.getByRole('button', { name: 'Stop turn' }).count()).toBe(0);
    await audit(page, '08-turn-stopped');
  });

  it('says the model is retrying, then shows one clean error', async () => {
    const page = await rig.signIn('bob@acme.test');
    await page.goto(`${rig.stack.url}/agents/demo?tab=chat`);
    await page.getByTestId('new-chat').click();
    await page.getByTestId('chat-input').fill('model-error: 529');
    await page.getByTestId('chat-input').press('Enter');
    const retrying = page.getByTestId('model-retrying');
    await retrying.waitFor({ timeout: TIMEOUT });
    expect(await retrying.textContent()).toMatch(/overloaded — retrying \(attempt \d\)/);
    await rig.shot(page, '09-model-retrying-desktop');
    const error = page.locator('.message-error');
    await error.waitFor({ timeout: 120_000 });
    expect(await retrying.count()).toBe(0);
    const message = ((await error.textContent()) ?? '')
      .replace(/^Failed: /, '')
      .replace(/model_error$/, '')
      .trim();
    expect(message.length).toBeGreaterThan(0);
    const log = (await page.locator('.chat-log').textContent()) ?? '';
    expect(log.split(message.slice(0, 30))).toHaveLength(2);
    expect(await page.getByTestId('chat-error').count()).toBe(0);
    expect(await page.locator('#content').textContent()).not.toMatch(
      /127\.0\.0\.1|localhost|:\d{4,5}\b|\bat \S+:\d+:\d+/,
    );
    await audit(page, '10-model-error');
  }, 180_000);

  it('designs the not-found states with a way back', async () => {
    const page = await rig.signIn('bob@acme.test');
    await page.goto(`${rig.stack.url}/nowhere`);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await audit(page, '11-not-found');
    await page.goto(`${rig.stack.url}/executions/${BOGUS_EXEC}`);
    await page.getByRole('heading', { level: 1, name: 'Execution not found' }).waitFor();
    expect(await page.getByRole('link', { name: 'Back to agents' }).count()).toBe(1);
    await audit(page, '12-execution-not-found');
  });
});
