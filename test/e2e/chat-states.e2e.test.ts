import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRig, startBrowserRig } from '../helpers/browser';
import { assistant } from '../helpers/chat-steps';

const TIMEOUT = 60_000;

let rig: BrowserRig;

beforeAll(async () => {
  rig = await startBrowserRig('chat-states', {});
});
afterAll(() => rig?.close());

const shot = (page: Page, name: string) => rig.shot(page, name);
const signIn = (email: string) => rig.signIn(email);

describe('chat states in the browser', () => {
  it('gets a stopped agent chatting: woken by the platform, or started from the notice where it still refuses', async () => {
    const page = await signIn('bob@acme.test');
    const row = page.getByTestId('agent-row').filter({ hasText: 'demo' });
    // "Stop agent" ends everyone's turns, so it asks first.
    await row.getByRole('button', { name: 'Stop agent' }).click();
    await row.getByTestId('agent-stop-confirm').click();
    await row.getByRole('button', { name: 'Start' }).waitFor({ timeout: TIMEOUT });

    await row.getByRole('link', { name: 'demo' }).click();
    // No dead end on opening the chat: the message box is there and the tab asked the agent to wake.
    await page.getByTestId('chat-input').fill('hello');
    await page.getByTestId('chat-input').press('Enter');
    const notRunning = page.getByTestId('agent-not-running');
    // A platform that does not wake agents yet answers 409 agent_not_running: start and resend.
    await expect
      .poll(
        async () => {
          if (await notRunning.isVisible()) {
            await shot(page, '01-agent-not-running');
            await page.getByTestId('agent-start').click();
            await notRunning.waitFor({ state: 'detached', timeout: TIMEOUT });
            await page.getByTestId('chat-input').press('Enter');
          }
          return (
            (await assistant(page)
              .first()
              .textContent({ timeout: 1000 })
              .catch(() => '')) ?? ''
          );
        },
        { timeout: TIMEOUT, interval: 500 },
      )
      .toContain('Echo (turn 1)');
    await shot(page, '02-started-and-chatting');
  });

  it('Stop (Escape) cancels a slow turn, keeps it in the log marked stopped and puts the message back in the box', async () => {
    const page = await signIn('bob@acme.test');
    await page.goto(`${rig.stack.url}/agents/demo?tab=chat`);
    await page.getByTestId('new-chat').click();
    await page.getByTestId('chat-input').fill('sleep: 30');
    await page.getByTestId('chat-input').press('Enter');
    await page.getByRole('button', { name: 'Stop turn' }).waitFor();
    await page.getByTestId('chat-input').press('Escape');
    await expect.poll(() => page.getByTestId('chat-input').inputValue()).toBe('sleep: 30');
    // The stopped turn stays in the log, marked stopped.
    await page.getByTestId('turn-stopped').waitFor();
    expect(await page.getByTestId('chat-message').count()).toBe(2);
    await shot(page, '03-stopped');
  });

  it('renders a reply carrying HTML inert, in the chat and on the execution page', async () => {
    const page = await signIn('bob@acme.test');
    await page.goto(`${rig.stack.url}/agents/demo?tab=chat`);
    await page.getByTestId('new-chat').click();
    // The scripted model echoes the prompt, so the reply carries the markup back.
    await page
      .getByTestId('chat-input')
      .fill('<img src=x onerror="window.__pwned=1"> and <script>window.__pwned=2</script>');
    await page.getByTestId('chat-input').press('Enter');
    await expect
      .poll(() => assistant(page).first().textContent(), { timeout: TIMEOUT })
      .toContain('Echo (turn 1)');
    const chatImages = await assistant(page)
      .first()
      .locator('img')
      .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('onerror')));
    expect(chatImages.every((handler) => handler === null)).toBe(true);
    expect(await page.locator('[data-role="assistant"] script').count()).toBe(0);

    const bob = await rig.stack.platform.core.stores.executions.listExecutionsByAgent('acme', 'demo', {
      limit: 1,
    });
    await page.goto(`${rig.stack.url}/executions/${bob.items[0]!.id}`);
    await page.getByTestId('execution-status').waitFor();
    await expect.poll(() => page.locator('body').textContent()).toContain('Echo (turn 1)');
    expect(await page.locator('img[onerror]').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    await shot(page, '04-inert-html');
  });
});
