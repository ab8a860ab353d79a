import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRig, startBrowserRig } from '../helpers/browser';
import { clientFor } from '../helpers/local-stack';

const REPLY_TIMEOUT = 90_000;
let rig: BrowserRig;

beforeAll(async () => {
  rig = await startBrowserRig('wake', { seedFailedRun: true });
});
afterAll(() => rig?.close());

describe('a chat on a sleeping agent', () => {
  it('wakes the agent on Continue as Chat and streams the answer with the execution’s context', async () => {
    const bob = await clientFor(rig.stack.url, 'bob@acme.test');
    const failed = await bob.call('GET', '/api/agents/demo/executions?status=failed');
    const execution = failed.body.items[0];
    expect(execution.message).toMatch(/^run: /);
    const command = execution.message.slice('run: '.length).trim();
    // Put the agent to sleep, as the idle check would.
    expect((await bob.call('POST', '/api/agents/demo/stop')).body.status).toBe('stopped');
    const demo = { tenant: 'acme', agent: 'demo' };
    const startsBefore = rig.stack.platform.fleet.startCount(demo);

    const page = await rig.signIn('bob@acme.test');
    await page.goto(`${rig.stack.url}/executions/${execution.id}`);
    await page.getByTestId('continue-as-chat').click();
    await page.getByTestId('resume-banner').waitFor();
    await rig.shot(page, '01-sleeping-agent-chat');

    await page.getByTestId('chat-input').fill('what went wrong');
    await page.getByTestId('chat-send').click();
    const reply = page.locator('[data-testid="chat-message"][data-role="assistant"]').first();
    await reply.locator('.typing').waitFor({ state: 'detached', timeout: REPLY_TIMEOUT });
    expect(await reply.textContent()).toContain(command);
    await rig.shot(page, '02-answer-after-wake');

    expect(rig.stack.platform.fleet.startCount(demo)).toBe(startsBefore + 1);
    expect((await bob.call('GET', '/api/agents/demo')).body.status).toBe('running');
  });
});
