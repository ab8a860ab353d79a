import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** How long a browser story waits for an agent's reply or a seeded run (the CLIs are real). */
export const REPLY_TIMEOUT = 90_000;

/** The assistant's messages in the open chat. */
export const assistant = (page: Page): Locator =>
  page.locator('[data-testid="chat-message"][data-role="assistant"]');

/** Sends one message with the Send button and returns the reply once it stops typing. */
export async function sendAndReply(page: Page, text: string): Promise<string> {
  const before = await assistant(page).count();
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-send').click();
  const reply = assistant(page).nth(before);
  await reply.locator('.typing').waitFor({ state: 'detached', timeout: REPLY_TIMEOUT });
  return (await reply.textContent()) ?? '';
}

/** The seeded failed execution of `agent`, opened from its Executions tab; returns its URL. */
export async function openFailedExecution(page: Page, agent: string): Promise<string> {
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
  return page.url();
}
