import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserRig, startBrowserRig } from '../helpers/browser';
import { clientFor } from '../helpers/local-stack';

const TIMEOUT = 60_000;

let rig: BrowserRig;

beforeAll(async () => {
  rig = await startBrowserRig('schedules', { seedFailedRun: false });
});
afterAll(() => rig?.close());

const shot = (page: Page, name: string) => rig.shot(page, name);
const signIn = (email: string) => rig.signIn(email);

/** Ids of the rows in the Executions tab whose source is `schedule`, after a fresh load. */
async function scheduledRunIds(page: Page): Promise<string[]> {
  await page.getByRole('button', { name: 'Refresh' }).click();
  await page.getByRole('button', { name: 'Refresh' }).and(page.locator(':enabled')).waitFor();
  const rows = page
    .getByTestId('execution-row')
    .filter({ has: page.getByRole('cell', { name: 'schedule', exact: true }) });
  return Promise.all((await rows.all()).map(async (r) => (await r.getAttribute('data-execution-id')) ?? ''));
}

describe('schedules in the browser', () => {
  it('creates a schedule that runs now and fires on the local cron, both listed under Executions', async () => {
    const page = await signIn('bob@acme.test');
    await page
      .getByTestId('agent-row')
      .filter({ hasText: 'demo' })
      .getByRole('link', { name: 'demo' })
      .click();
    await page.getByRole('tab', { name: 'Schedules' }).click();
    await page.getByText('No schedules for this agent.').waitFor();

    await page.getByRole('button', { name: 'New schedule' }).click();
    await page.getByLabel('Name').fill('every minute');
    await page.getByLabel(/^Cron/).fill('* * * * *');
    await page.getByLabel('Time zone').fill('UTC');
    await page.getByLabel('Message').fill('scheduled hello');
    await expect.poll(() => page.getByTestId('cron-description').textContent()).toBe('Every minute (UTC)');
    expect(await page.getByTestId('cron-next-runs').getByRole('listitem').count()).toBe(3);
    await shot(page, '01-form-with-preview');
    await page.getByRole('button', { name: 'Create schedule' }).click();

    const row = page.getByTestId('schedule-row').filter({ hasText: 'every minute' });
    await row.waitFor();
    const scheduleId = (await row.getAttribute('data-schedule-id')) ?? '';
    expect(scheduleId).not.toBe('');
    const nextRun = Date.parse(
      (await row.getByTestId('schedule-next-run').locator('time').getAttribute('datetime')) ?? '',
    );
    expect(nextRun).toBeGreaterThan(Date.now() - 1000);
    expect(nextRun - Date.now()).toBeLessThanOrEqual(61_000);
    await shot(page, '02-listed-with-next-run');

    // Run now: a run straight away, linked from the banner.
    await row.getByRole('button', { name: 'Run now' }).click();
    const link = page.getByTestId('schedule-run-link');
    await link.waitFor();
    const runNowId = ((await link.getAttribute('href')) ?? '').replace('/executions/', '');
    await shot(page, '03-run-now-started');
    await link.click();
    await expect
      .poll(() => page.getByTestId('execution-status').textContent(), { timeout: TIMEOUT })
      .toBe('success');
    expect(await page.getByText('scheduled hello').count()).toBeGreaterThan(0);
    await shot(page, '04-run-now-execution');

    // On its own: the local cron fires what fell due; ticking a minute ahead spares the wait.
    const due = await rig.stack.scheduler.tick(Date.now() + 61_000);
    expect(due.map((e) => e.schedule_id)).toContain(scheduleId);

    await page.goto(`${rig.stack.url}/agents/demo?tab=schedules`);
    await row.getByRole('link', { name: 'Executions' }).click();
    await page.getByTestId('execution-row').first().waitFor();
    await expect
      .poll(async () => (await scheduledRunIds(page)).filter((id) => id !== runNowId).length, {
        timeout: TIMEOUT,
      })
      .toBeGreaterThanOrEqual(1);
    expect(await scheduledRunIds(page)).toContain(runNowId);
    await shot(page, '05-scheduled-run-under-executions');
  });

  it('turns a schedule off and on from the keyboard, and its next run follows', async () => {
    const bob = await clientFor(rig.stack.url, 'bob@acme.test');
    const created = await bob.call('POST', '/api/agents/demo/schedules', {
      name: 'weekday digest',
      cron: '0 9 * * 1-5',
      timezone: 'Europe/Berlin',
      message: 'digest',
    });
    expect(created.status).toBe(201);
    const page = await signIn('bob@acme.test');
    await page.goto(`${rig.stack.url}/agents/demo?tab=schedules`);
    const row = page.getByTestId('schedule-row').filter({ hasText: 'weekday digest' });
    expect(await row.textContent()).toContain('Every weekday at 09:00 (Europe/Berlin)');
    const toggle = row.getByRole('switch', { name: 'Enabled: weekday digest' });
    await toggle.press('Space');
    await expect.poll(() => row.getByTestId('schedule-next-run').textContent()).toBe('Paused');
    expect(await toggle.isChecked()).toBe(false);
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, '06-paused-dark');
    // Focus stays on the switch while the PUT goes out and the row updates.
    await page.keyboard.press('Space');
    await row.getByTestId('schedule-next-run').locator('time').waitFor();
    expect(await toggle.isChecked()).toBe(true);
    expect(await toggle.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
  });
});
