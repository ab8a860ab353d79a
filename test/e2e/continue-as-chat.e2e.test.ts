import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRig, startBrowserRig } from '../helpers/browser';
import { openFailedExecution, REPLY_TIMEOUT, sendAndReply } from '../helpers/chat-steps';

let rig: BrowserRig;

beforeAll(async () => {
  rig = await startBrowserRig('continue-as-chat', { seedFailedRun: true });
});
afterAll(() => rig?.close());

const shot = (page: Page, name: string) => rig.shot(page, name);
const signIn = (email: string) => rig.signIn(email);

async function ensureAgentRunning(page: Page) {
  if (await page.getByTestId('agent-not-running').isVisible()) {
    await page.getByTestId('agent-start').click();
    await page.getByTestId('agent-not-running').waitFor({ state: 'detached', timeout: REPLY_TIMEOUT });
  }
}

describe('Continue as Chat in the browser', () => {
  it('continues a failed execution with its full context, across dismiss, New Chat and a pasted link', async () => {
    const page = await signIn('bob@acme.test');
    await shot(page, '01-agents');
    const executionUrl = await openFailedExecution(page, 'demo');
    const command = ((await page.locator('pre.message').textContent()) ?? '').match(/run: (.+)/)?.[1]?.trim();
    expect(command).toBeTruthy();
    await shot(page, '02-failed-execution');

    const sessionId = (await page.locator('dd code').first().textContent())?.trim();
    const taskBodies: Record<string, unknown>[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().endsWith('/api/agents/demo/task'))
        taskBodies.push(req.postDataJSON());
    });

    await page.getByTestId('continue-as-chat').click();
    await page.getByTestId('resume-banner').waitFor();
    const deepLink = page.url();
    expect(deepLink).toContain('tab=chat');
    expect(deepLink).toContain('resumeSessionId=');
    await ensureAgentRunning(page);
    await shot(page, '03-resume-banner');

    const first = await sendAndReply(page, 'what went wrong');
    expect(first).toContain(command!);
    await shot(page, '04-what-went-wrong');

    await page.getByTestId('resume-banner-dismiss').click();
    expect(await page.getByTestId('resume-banner').count()).toBe(0);
    const second = await sendAndReply(page, 'recap');
    expect(second).toContain(command!);
    // The second turn continued the same chat rather than forking the execution again.
    await expect
      .poll(() => page.locator('[data-testid="chat-list-item"][aria-current="true"]').textContent())
      .toContain('2 turns');
    await shot(page, '05-after-dismiss');
    expect(taskBodies[0]).toEqual({
      message: 'what went wrong',
      resume_session_id: sessionId,
      fork_session: true,
      start_chat: true,
    });
    expect(taskBodies[1]).toMatchObject({
      message: 'recap',
      chat_session_id: expect.any(String),
      resume_session_id: expect.any(String),
    });
    expect(taskBodies[1]?.resume_session_id).not.toBe(sessionId);
    expect(taskBodies[1]?.fork_session).toBeUndefined();

    await page.getByTestId('new-chat').click();
    expect(await page.getByTestId('chat-message').count()).toBe(0);
    expect(await sendAndReply(page, 'hello')).toContain('Echo (turn 1)');
    expect(taskBodies[2]).toEqual({ message: 'hello', start_chat: true });
    await shot(page, '06-new-chat');

    // A new tab of the same browser shares the sign-in: the pasted link opens straight into the chat.
    const pasted = await page.context().newPage();
    await pasted.goto(deepLink);
    await pasted.getByTestId('resume-banner').waitFor();
    expect(pasted.url()).toBe(deepLink);
    expect(await sendAndReply(pasted, 'what went wrong')).toContain(command!);
    await shot(pasted, '07-pasted-deep-link');

    const dana = await signIn('dana@acme.test');
    await dana.goto(executionUrl);
    await dana.getByTestId('execution-status').waitFor();
    expect(await dana.getByTestId('continue-as-chat').count()).toBe(0);
    await shot(dana, '08-dana-no-continue');
  });
});
