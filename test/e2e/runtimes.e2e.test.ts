import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRig, startBrowserRig } from '../helpers/browser';

const REPLY_TIMEOUT = 90_000;

let rig: BrowserRig;

beforeAll(async () => {
  rig = await startBrowserRig('runtimes', { seedFailedRun: true });
});
afterAll(() => rig?.close());

const assistant = (page: Page): Locator =>
  page.locator('[data-testid="chat-message"][data-role="assistant"]');

async function sendAndReply(page: Page, text: string): Promise<string> {
  const before = await assistant(page).count();
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-send').click();
  const reply = assistant(page).nth(before);
  await reply.locator('.typing').waitFor({ state: 'detached', timeout: REPLY_TIMEOUT });
  return (await reply.textContent()) ?? '';
}

/** The seeded failed execution of the agent, opened from its Executions tab. */
async function openFailedExecution(page: Page, agent: string): Promise<void> {
  const row = page.locator(`[data-testid="agent-row"][data-agent="${agent}"]`);
  expect(await row.textContent()).toContain(agent);
  await row.getByRole('link', { name: agent }).click();
  await page.getByRole('tab', { name: 'Executions' }).click();
  const failed = page
    .getByTestId('execution-row')
    .filter({ has: page.getByTestId('execution-status').getByText('failed', { exact: true }) })
    .first();
  // The stack seeds the failed run as it starts; refresh until it is listed.
  await expect
    .poll(
      async () => {
        if (await failed.isVisible()) return true;
        await page.getByRole('button', { name: 'Refresh' }).click();
        return false;
      },
      { timeout: REPLY_TIMEOUT, interval: 500 },
    )
    .toBe(true);
  await failed.getByRole('link').click();
  await page.getByTestId('execution-status').waitFor();
}

describe('Continue as Chat for codex and gemini agents in the browser', () => {
  it.each(['codex', 'gemini'])(
    'continues the failed %s execution as a chat with its whole context',
    async (agent) => {
      const page = await rig.signIn('bob@acme.test');
      await page.locator(`[data-testid="agent-row"][data-agent="${agent}"]`).waitFor();
      await openFailedExecution(page, agent);
      await rig.shot(page, `${agent}-01-failed-execution`);

      await page.getByTestId('continue-as-chat').click();
      await page.getByTestId('resume-banner').waitFor();
      if (await page.getByTestId('agent-not-running').isVisible()) {
        await page.getByTestId('agent-start').click();
        await page.getByTestId('agent-not-running').waitFor({ state: 'detached', timeout: REPLY_TIMEOUT });
      }
      const first = await sendAndReply(page, 'what went wrong');
      expect(first).toContain('ls /nonexistent');
      expect(first).toContain('failed');
      await rig.shot(page, `${agent}-02-what-went-wrong`);

      const second = await sendAndReply(page, 'recap');
      expect(second).toContain('You asked: run: ls /nonexistent');
      expect(second).toContain('You asked: what went wrong');
      await expect
        .poll(() => page.locator('[data-testid="chat-list-item"][aria-current="true"]').textContent())
        .toContain('2 turns');
      await rig.shot(page, `${agent}-03-recap`);
    },
  );
});
