import type { Schedule } from '@reprise/functions/schemas';
import { fireEvent, screen, waitFor, within } from '@solidjs/testing-library';
import { describe, expect, it } from 'vitest';
import { createFakeServer, json } from './fake-server';
import { agent, execution, T0 } from './fixtures';
import { renderApp } from './render-app';

const NEXT = '2026-12-02T08:00:00.000Z';

const schedule = (over: Partial<Schedule> = {}): Schedule => ({
  id: '01JSCHED000000000000000001',
  agent: 'demo',
  name: 'daily report',
  cron: '0 9 * * *',
  timezone: 'Europe/Berlin',
  message: 'write the daily report',
  enabled: true,
  timeout_seconds: 600,
  owner_user_id: 'u-bob',
  next_run_at: NEXT,
  created_at: T0,
  updated_at: T0,
  ...over,
});

function open(routes: Parameters<typeof createFakeServer>[0]) {
  const server = createFakeServer({ 'GET /api/agents/demo': agent(), ...routes });
  const view = renderApp('/agents/demo?tab=schedules', server.fetch);
  return { server, ...view };
}

const rows = () => screen.findAllByTestId('schedule-row');
const input = (label: RegExp | string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: RegExp | string, value: string) => fireEvent.input(input(label), { target: { value } });

describe('schedules list', () => {
  it('shows each schedule with its cron in words, zone and next run', async () => {
    open({
      'GET /api/agents/demo/schedules': {
        items: [schedule(), schedule({ id: 's2', name: 'paused one', enabled: false, next_run_at: null })],
      },
    });
    const [first, second] = await rows();
    expect(first?.textContent).toContain('daily report');
    expect(first?.textContent).toContain('Every day at 09:00 (Europe/Berlin)');
    const next = within(first!).getByTestId('schedule-next-run').querySelector('time');
    expect(next?.getAttribute('datetime')).toBe(NEXT);
    expect(next?.textContent).not.toBe('—');
    expect(within(second!).getByTestId('schedule-next-run').textContent).toBe('Paused');
    expect(within(first!).getByRole('switch', { name: 'Enabled: daily report' })).toHaveProperty(
      'checked',
      true,
    );
    expect(within(second!).getByRole('switch', { name: 'Enabled: paused one' })).toHaveProperty(
      'checked',
      false,
    );
  });

  it('says it is loading, then that there are none', async () => {
    let answer!: (r: Response) => void;
    open({ 'GET /api/agents/demo/schedules': () => new Promise<Response>((r) => (answer = r)) });
    expect(await screen.findByText('Loading schedules…')).toBeTruthy();
    answer(json(200, { items: [] }));
    expect(await screen.findByText('No schedules for this agent.')).toBeTruthy();
    expect(screen.queryByText('Loading schedules…')).toBeNull();
  });

  it('links each schedule to the agent’s executions', async () => {
    open({ 'GET /api/agents/demo/schedules': { items: [schedule()] } });
    const [row] = await rows();
    expect(within(row!).getByRole('link', { name: 'Executions' }).getAttribute('href')).toBe(
      '/agents/demo?tab=executions',
    );
  });
});

describe('creating and editing', () => {
  it('posts the form as a ScheduleInput and refreshes the list', async () => {
    let created: Schedule | null = null;
    const { server } = open({
      'GET /api/agents/demo/schedules': () => ({ items: created ? [created] : [] }),
      'POST /api/agents/demo/schedules': (call) => {
        created = schedule({ id: 'new-1', name: 'nightly', cron: '30 2 * * 1-5' });
        return json(201, { ...created, ...(call.body as object) });
      },
    });
    await screen.findByText('No schedules for this agent.');
    fireEvent.click(screen.getByRole('button', { name: 'New schedule' }));
    type('Name', 'nightly');
    type(/^Cron/, '30  2 * * 1-5');
    type('Time zone', 'Europe/Berlin');
    type('Message', 'clean up the build cache');
    type(/^Timeout/, '120');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Enabled' }));
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));

    const [row] = await rows();
    expect(row?.textContent).toContain('nightly');
    const posts = server.calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => c.body)).toEqual([
      {
        name: 'nightly',
        cron: '30 2 * * 1-5',
        timezone: 'Europe/Berlin',
        message: 'clean up the build cache',
        enabled: false,
        timeout_seconds: 120,
      },
    ]);
    expect(server.calls.filter((c) => c.method === 'GET' && c.path.endsWith('/schedules'))).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Create schedule' })).toBeNull();
  });

  it('shows the server’s 400 details next to the fields they name', async () => {
    const { server } = open({
      'GET /api/agents/demo/schedules': { items: [] },
      'POST /api/agents/demo/schedules': () =>
        json(400, {
          error: {
            code: 'validation_error',
            message: 'cron: runs more than once a minute',
            details: [
              { path: 'cron', message: 'runs more than once a minute; the shortest interval is one minute' },
              { path: 'timeout_seconds', message: 'Too big: expected number to be <=840' },
            ],
          },
        }),
    });
    await screen.findByText('No schedules for this agent.');
    fireEvent.click(screen.getByRole('button', { name: 'New schedule' }));
    type('Name', 'too often');
    type('Message', 'hi');
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));

    const cronError = await screen.findByTestId('schedule-error-cron');
    expect(cronError.textContent).toBe('runs more than once a minute; the shortest interval is one minute');
    expect(screen.getByTestId('schedule-error-timeout_seconds').textContent).toContain('<=840');
    expect(input(/^Cron/).getAttribute('aria-invalid')).toBe('true');
    expect(input(/^Cron/).getAttribute('aria-describedby')).toContain(cronError.id);
    expect(screen.queryByTestId('schedule-error-name')).toBeNull();
    expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(1);

    // Editing the field retires the server's verdict on it.
    type(/^Cron/, '0 10 * * *');
    await waitFor(() => expect(screen.queryByTestId('schedule-error-cron')).toBeNull());
    expect(screen.getByTestId('schedule-error-timeout_seconds')).toBeTruthy();
  });

  it('does not send a cron without five fields and says why', async () => {
    const { server } = open({ 'GET /api/agents/demo/schedules': { items: [] } });
    await screen.findByText('No schedules for this agent.');
    fireEvent.click(screen.getByRole('button', { name: 'New schedule' }));
    type('Name', 'broken');
    type('Message', 'hi');
    type(/^Cron/, '0 9 * *');
    expect((await screen.findByTestId('schedule-error-cron')).textContent).toContain('Expected 5 fields');
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    await waitFor(() => expect(document.activeElement).toBe(input(/^Cron/)));
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('edits a schedule with PUT to its id, pre-filled with what it has', async () => {
    const { server } = open({
      'GET /api/agents/demo/schedules': { items: [schedule()] },
      'PUT /api/schedules/:id': (call) => schedule(call.body as Partial<Schedule>),
    });
    const [row] = await rows();
    fireEvent.click(within(row!).getByRole('button', { name: 'Edit' }));
    expect(input('Name').value).toBe('daily report');
    expect(input('Time zone').value).toBe('Europe/Berlin');
    type(/^Cron/, '0 8 * * *');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(server.called('PUT', '/api/schedules/01JSCHED000000000000000001')).toBe(true));
    expect(server.calls.find((c) => c.method === 'PUT')?.body).toEqual({
      name: 'daily report',
      cron: '0 8 * * *',
      timezone: 'Europe/Berlin',
      message: 'write the daily report',
      enabled: true,
      timeout_seconds: 600,
    });
  });
});

describe('row actions', () => {
  it('toggling enabled PUTs the whole schedule with enabled flipped', async () => {
    const { server } = open({
      'GET /api/agents/demo/schedules': { items: [schedule()] },
      'PUT /api/schedules/:id': (call) => ({
        ...schedule(call.body as Partial<Schedule>),
        next_run_at: null,
      }),
    });
    const [row] = await rows();
    const toggle = within(row!).getByRole('switch', { name: 'Enabled: daily report' }) as HTMLInputElement;
    fireEvent.click(toggle);
    await waitFor(() => expect(within(row!).getByTestId('schedule-next-run').textContent).toBe('Paused'));
    expect(toggle.checked).toBe(false);
    const put = server.calls.find((c) => c.method === 'PUT');
    expect(put?.path).toBe('/api/schedules/01JSCHED000000000000000001');
    expect(put?.body).toEqual({
      name: 'daily report',
      cron: '0 9 * * *',
      timezone: 'Europe/Berlin',
      message: 'write the daily report',
      timeout_seconds: 600,
      enabled: false,
    });
  });

  it('Run now posts and links to the new execution', async () => {
    const { server } = open({
      'GET /api/agents/demo/schedules': { items: [schedule()] },
      'POST /api/schedules/:id/run': () =>
        json(202, {
          execution_id: '01JRUN0000000000000000000A',
          status: 'queued',
          session_id: 'sess-1',
          events_url: '/api/executions/01JRUN0000000000000000000A/events',
        }),
    });
    const [row] = await rows();
    fireEvent.click(within(row!).getByRole('button', { name: 'Run now' }));
    const link = await screen.findByTestId('schedule-run-link');
    expect(link.getAttribute('href')).toBe('/executions/01JRUN0000000000000000000A');
    expect(server.called('POST', '/api/schedules/01JSCHED000000000000000001/run')).toBe(true);
  });

  it('keeps the Run now notice current: "queued" turns into the run’s final status', async () => {
    let polls = 0;
    open({
      'GET /api/agents/demo/schedules': { items: [schedule()] },
      'POST /api/schedules/:id/run': () =>
        json(202, {
          execution_id: '01JRUN0000000000000000000A',
          status: 'queued',
          session_id: 'sess-1',
          events_url: '/api/executions/01JRUN0000000000000000000A/events',
        }),
      'GET /api/executions/:id': () => {
        polls++;
        return json(
          200,
          execution({ id: '01JRUN0000000000000000000A', status: polls > 1 ? 'success' : 'running' }),
        );
      },
    });
    const [row] = await rows();
    fireEvent.click(within(row!).getByRole('button', { name: 'Run now' }));
    expect((await screen.findByTestId('schedule-run-status')).textContent).toBe('(queued)');
    await waitFor(() => expect(screen.getByTestId('schedule-run-status').textContent).toBe('(running)'), {
      timeout: 4000,
    });
    await waitFor(() => expect(screen.getByTestId('schedule-run-status').textContent).toBe('(success)'), {
      timeout: 4000,
    });
  });

  it('shows why Run now failed when the agent is stopped', async () => {
    open({
      'GET /api/agents/demo/schedules': { items: [schedule()] },
      'POST /api/schedules/:id/run': () =>
        json(409, {
          error: { code: 'agent_not_running', message: 'Agent demo is not running' },
        }),
    });
    const [row] = await rows();
    fireEvent.click(within(row!).getByRole('button', { name: 'Run now' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Agent demo is not running');
    expect(screen.queryByTestId('schedule-run-link')).toBeNull();
  });

  it('deletes only after the user confirms', async () => {
    const { server } = open({
      'GET /api/agents/demo/schedules': { items: [schedule()] },
      'DELETE /api/schedules/:id': () => new Response(null, { status: 204 }),
    });
    const [row] = await rows();
    fireEvent.click(within(row!).getByRole('button', { name: 'Delete' }));
    expect(server.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Yes, delete'));
    fireEvent.click(within(row!).getByRole('button', { name: 'Keep' }));
    // Backing out returns focus to where it came from.
    const again = within(row!).getByRole('button', { name: 'Delete' });
    await waitFor(() => expect(document.activeElement).toBe(again));
    fireEvent.click(again);
    fireEvent.click(within(row!).getByRole('button', { name: 'Yes, delete' }));
    expect(await screen.findByText('No schedules for this agent.')).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'New schedule' })),
    );
    expect(server.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      '/api/schedules/01JSCHED000000000000000001',
    ]);
  });
});
