import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRig, startBrowserRig } from '../helpers/browser';
import { clientFor } from '../helpers/local-stack';

let rig: BrowserRig;

beforeAll(async () => {
  rig = await startBrowserRig('sign-in-tabs', { seedFailedRun: true });
});
afterAll(() => rig?.close());

/** The seeded failed run of `demo`: the execution a Continue as Chat link points at. */
async function seededFailedRun(): Promise<{ id: string; session: string }> {
  const bob = await clientFor(rig.stack.url, 'bob@acme.test');
  for (;;) {
    const list = await bob.call('GET', '/api/agents/demo/executions?status=failed');
    const run = list.body.items[0];
    if (run?.claude_session_id) return { id: run.id, session: run.claude_session_id };
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('sign-in across tabs of one browser', () => {
  it('opens a Continue as Chat deep link in a new tab straight into the resumed chat, and signs out every tab at once', async () => {
    const first = await rig.signIn('bob@acme.test');
    const run = await seededFailedRun();
    const link = `${rig.stack.url}/agents/demo?tab=chat&resumeSessionId=${run.session}&executionId=${run.id}`;

    const second = await first.context().newPage();
    await second.goto(link);
    await second.getByTestId('resume-banner').waitFor();
    expect(new URL(second.url()).pathname).toBe('/agents/demo');
    expect(await second.getByTestId('login-email').count()).toBe(0);
    await rig.shot(second, 'deep-link-new-tab');

    await first.getByRole('button', { name: 'Sign out' }).click();
    await first.getByTestId('login-email').waitFor();
    // The other tab learns of it from the storage event, without a reload or an API call.
    await second.getByTestId('login-email').waitFor();
    expect(new URL(second.url()).pathname).toBe('/login');
    await rig.shot(second, 'signed-out-elsewhere');
  });
});
