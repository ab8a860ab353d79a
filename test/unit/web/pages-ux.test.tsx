import { fireEvent, screen, waitFor, within } from '@solidjs/testing-library';
import { describe, expect, it } from 'vitest';
import { cleanErrorMessage } from '~/lib/clean-error';
import { formatRelative, formatTokens, plural } from '~/lib/format';
import { apiError, createFakeServer, json, liveSse } from './fake-server';
import { agent, execution } from './fixtures';
import { renderApp } from './render-app';

const ID = '01JEXEC0000000000000000001';
const USERS = {
  items: [
    { user_id: 'u-bob', email: 'bob@acme.test', role: 'operator' },
    { user_id: 'u-dana', email: 'dana@acme.test', role: 'operator' },
  ],
};
const summary = (id: string, owner: string) => {
  const e = execution({ id, owner_user_id: owner });
  return {
    id,
    agent: 'demo',
    source: 'manual',
    status: 'success',
    message: e.message,
    owner_user_id: owner,
    claude_session_id: null,
    schedule_id: null,
    chat_session_id: null,
    created_at: e.created_at,
    duration_ms: 1500,
    cost_usd: 0.02,
    error_code: null,
  };
};

describe('executions tab', () => {
  it('shows who ran each execution by email, filters by source and person, and starts a run', async () => {
    const server = createFakeServer({
      'GET /api/users': USERS,
      'GET /api/agents/demo': agent(),
      'GET /api/agents/demo/executions': (call) =>
        json(200, {
          items:
            call.query.get('owner_user_id') === 'u-dana'
              ? [summary('e2', 'u-dana')]
              : [summary('e1', 'u-bob')],
          next_cursor: null,
        }),
      'POST /api/agents/demo/wake': () => json(202, agent()),
      'POST /api/agents/demo/task': () =>
        json(202, {
          execution_id: '01JNEW0000000000000000000Z',
          status: 'queued',
          session_id: 's',
          events_url: '',
        }),
    });
    renderApp('/agents/demo?tab=executions', server.fetch);
    await waitFor(() => expect(screen.getByTestId('execution-by').textContent).toBe('bob@acme.test'));

    fireEvent.change(screen.getByTestId('filter-source'), { target: { value: 'schedule' } });
    await waitFor(() => expect(server.calls.at(-1)?.query.get('source')).toBe('schedule'));
    fireEvent.change(screen.getByTestId('filter-source'), { target: { value: '' } });
    await screen.findByRole('option', { name: 'dana@acme.test' });
    fireEvent.change(screen.getByTestId('filter-person'), { target: { value: 'u-dana' } });
    await waitFor(() => expect(screen.getByTestId('execution-by').textContent).toBe('dana@acme.test'));

    fireEvent.input(screen.getByTestId('run-message'), { target: { value: 'run: make test' } });
    fireEvent.click(screen.getByTestId('run-submit'));
    expect(
      (await screen.findByText(/Started/, { selector: 'p' })).querySelector('a')?.getAttribute('href'),
    ).toBe('/executions/01JNEW0000000000000000000Z');
    expect(server.taskBodies()).toEqual([{ message: 'run: make test' }]);
  });

  it('says what to do next when there are no executions', async () => {
    const server = createFakeServer({
      'GET /api/agents/demo': agent(),
      'GET /api/agents/demo/executions': { items: [], next_cursor: null },
    });
    renderApp('/agents/demo?tab=executions', server.fetch);
    expect((await screen.findByText('No executions yet.')).parentElement?.textContent).toContain(
      'message box above',
    );
  });
});

describe('execution page', () => {
  it('explains the failure with the failing command and its output, headings in order', async () => {
    const server = createFakeServer({
      'GET /api/users': USERS,
      [`GET /api/executions/${ID}`]: execution(),
    });
    renderApp(`/executions/${ID}`, server.fetch);
    const card = (await screen.findByText('The agent’s CLI failed')).closest('section') as HTMLElement;
    expect(card.textContent).toContain('make deploy');
    expect(card.querySelector('pre')?.textContent).toBe('Error 2');
    await waitFor(() => expect(document.body.textContent).toContain('Triggered bybob@acme.test'));
    expect(document.body.textContent).toContain('2 turns');
    const levels = [...document.querySelectorAll('h1,h2,h3,h4')].map((h) => Number(h.tagName[1]));
    levels.forEach((level, i) => {
      if (i > 0) expect(level - (levels[i - 1] ?? 1)).toBeLessThanOrEqual(1);
    });
  });

  it('shows queued → waking agent → running from the status events', async () => {
    const stream = liveSse();
    const server = createFakeServer({
      [`GET /api/executions/${ID}`]: execution({
        status: 'queued',
        error: null,
        response: null,
        can_continue_as_chat: false,
        waiting_for: 'agent',
      } as never),
      [`GET /api/executions/${ID}/events`]: () => stream.response,
    });
    renderApp(`/executions/${ID}`, server.fetch);
    const progress = await screen.findByTestId('execution-progress');
    const current = () => progress.querySelector('[aria-current="step"]')?.textContent;
    expect([...progress.querySelectorAll('li')].map((l) => l.textContent)).toEqual([
      'Queued',
      'Waking agent',
      'Running',
      'Finished',
    ]);
    expect(current()).toBe('Waking agent');
    stream.emit({ type: 'status', status: 'running', session_id: 's' });
    await waitFor(() => expect(current()).toBe('Running'));
  });

  it('wakes the agent on Continue as Chat', async () => {
    const server = createFakeServer({
      [`GET /api/executions/${ID}`]: execution(),
      'GET /api/agents/demo': agent(),
      'GET /api/agents/demo/chats': { items: [] },
      'POST /api/agents/demo/wake': () => json(202, agent()),
    });
    renderApp(`/executions/${ID}`, server.fetch);
    fireEvent.click(await screen.findByTestId('continue-as-chat'));
    await waitFor(() => expect(server.called('POST', '/api/agents/demo/wake')).toBe(true));
  });

  it('is a not-found page with a way back for an unknown id, and offers a retry for other failures', async () => {
    let fail = 500;
    const server = createFakeServer({
      [`GET /api/executions/${ID}`]: () =>
        fail ? apiError(fail, 'internal', 'connect ECONNREFUSED 10.0.3.7:8443') : json(200, execution()),
      'GET /api/executions/nope': () => apiError(404, 'not_found'),
    });
    const app = renderApp('/executions/nope', server.fetch);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Execution not found');
    expect(screen.getByRole('link', { name: 'Back to agents' })).toBeTruthy();
    app.go(`/executions/${ID}`);
    const state = await screen.findByRole('alert');
    expect(state.textContent).not.toContain('10.0.3.7');
    fail = 0;
    fireEvent.click(within(state).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('execution-status')).toBeTruthy();
  });
});

describe('keyboard and titles', () => {
  it('moves focus to the new page’s heading after navigation and names the tab', async () => {
    const server = createFakeServer({
      'GET /api/agents': { items: [agent()] },
      'GET /api/agents/demo': agent(),
      'GET /api/agents/demo/chats': { items: [] },
    });
    const app = renderApp('/agents', server.fetch);
    await screen.findByTestId('agent-row');
    expect(document.title).toBe('Agents · Reprise');
    app.go('/agents/demo?tab=chat');
    const h1 = await screen.findByRole('heading', { level: 1, name: 'demo' });
    await waitFor(() => expect(document.activeElement).toBe(h1));
    expect(document.title).toBe('demo · Reprise');
  });

  it('follows the WAI-ARIA tabs pattern: one tab stop, arrow keys move and select', async () => {
    const server = createFakeServer({
      'GET /api/agents/demo': agent(),
      'GET /api/agents/demo/chats': { items: [] },
      'GET /api/agents/demo/executions': { items: [], next_cursor: null },
      'GET /api/agents/demo/schedules': { items: [] },
    });
    const app = renderApp('/agents/demo?tab=chat', server.fetch);
    const chatTab = await screen.findByRole('tab', { name: 'Chat' });
    expect(chatTab.getAttribute('tabindex')).toBe('0');
    expect(screen.getByRole('tab', { name: 'Executions' }).getAttribute('tabindex')).toBe('-1');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('tab-chat');
    fireEvent.keyDown(chatTab, { key: 'ArrowRight' });
    await waitFor(() => expect(app.location()).toBe('/agents/demo?tab=executions'));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Executions' })));
    fireEvent.keyDown(document.activeElement as Element, { key: 'End' });
    await waitFor(() => expect(app.location()).toBe('/agents/demo?tab=schedules'));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowRight' });
    await waitFor(() => expect(app.location()).toBe('/agents/demo?tab=chat'));
  });
});

describe('agents list', () => {
  it('shows each agent’s state and when it was last active', async () => {
    const server = createFakeServer({
      'GET /api/agents': {
        items: [
          agent({
            status: 'stopped',
            last_active_at: new Date(Date.now() - 2 * 3600_000).toISOString(),
          } as never),
        ],
      },
    });
    renderApp('/agents', server.fetch);
    const row = await screen.findByTestId('agent-row');
    expect(row.textContent).toContain('stopped');
    expect(row.textContent).toContain('2 h ago');
  });
});

describe('formatting', () => {
  it('formats numbers, counts and times for people', () => {
    expect(formatTokens(1_000_000)).toBe('1M');
    expect(formatTokens(200_000)).toBe('200k');
    expect(formatTokens(5_000)).toBe('5k');
    expect(formatTokens(1_500)).toBe('1.5k');
    expect(plural(1, 'turn')).toBe('1 turn');
    expect(plural(2, 'turn')).toBe('2 turns');
    const now = Date.parse('2026-12-01T10:00:00Z');
    expect(formatRelative('2026-12-01T09:57:00Z', now)).toBe('3 min ago');
    expect(formatRelative('2026-12-01T09:59:50Z', now)).toBe('just now');
    expect(formatRelative('2026-11-30T10:00:00Z', now)).toBe('yesterday');
    expect(formatRelative('2026-12-01T12:00:00Z', now)).toBe('in 2 h');
  });

  it('keeps internal hosts, ports, URLs and stack frames out of error text', () => {
    expect(
      cleanErrorMessage(
        'Connection error: fetch failed 127.0.0.1:41301\n    at undici (node:internal/fetch:1:2)',
      ),
    ).toBe('Connection error: fetch failed the model service');
    expect(cleanErrorMessage('API Error: 529 {"type":"error","error":{"type":"overloaded_error"}}')).toBe(
      'API Error: 529',
    );
    expect(cleanErrorMessage('refused by http://localhost:8080/x')).toBe('refused by the model service');
    expect(cleanErrorMessage('If it persists, check your inference gateway (http://127.0.0.1:41301).')).toBe(
      'If it persists, check your inference gateway.',
    );
  });
});
