import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRig, startBrowserRig } from '../helpers/browser';
import { openFailedExecution, REPLY_TIMEOUT, sendAndReply } from '../helpers/chat-steps';

let rig: BrowserRig;

beforeAll(async () => {
  rig = await startBrowserRig('runtimes', { seedFailedRun: true });
});
afterAll(() => rig?.close());

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
