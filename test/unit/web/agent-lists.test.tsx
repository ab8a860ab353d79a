import { fireEvent, screen, waitFor } from '@solidjs/testing-library';
import { describe, expect, it } from 'vitest';
import { createFakeServer, json } from './fake-server';
import { agent, execution } from './fixtures';
import { renderApp } from './render-app';

const summary = (id: string, status: 'success' | 'failed') => {
  const e = execution({ id, status });
  return {
    id: e.id,
    agent: 'demo',
    source: e.source,
    status,
    message: e.message,
    owner_user_id: e.owner_user_id,
    claude_session_id: e.claude_session_id,
    schedule_id: null,
    chat_session_id: null,
    created_at: e.created_at,
    duration_ms: 1500,
    cost_usd: 0.02,
    error_code: status === 'failed' ? 'cli_failed' : null,
  };
};

describe('agents list', () => {
  it('shows a row per agent with its status and starts a stopped one', async () => {
    const server = createFakeServer({
      'GET /api/agents': { items: [agent({ status: 'stopped' })] },
      'POST /api/agents/demo/start': () => json(202, agent({ status: 'starting' })),
    });
    renderApp('/agents', server.fetch);
    const row = await screen.findByTestId('agent-row');
    expect(row.textContent).toContain('stopped');
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    await waitFor(() => expect(screen.getByTestId('agent-row').textContent).toContain('starting'));
  });
});

describe('executions tab', () => {
  it('pages with next_cursor and filters by status', async () => {
    const server = createFakeServer({
      'GET /api/agents/demo': agent(),
      'GET /api/agents/demo/executions': (call) => {
        if (call.query.get('status') === 'failed')
          return { items: [summary('x-failed', 'failed')], next_cursor: null };
        return call.query.get('cursor') === 'page2'
          ? { items: [summary('x2', 'success')], next_cursor: null }
          : { items: [summary('x1', 'failed')], next_cursor: 'page2' };
      },
    });
    renderApp('/agents/demo?tab=executions', server.fetch);
    expect(await screen.findAllByTestId('execution-row')).toHaveLength(1);
    expect(screen.getByTestId('execution-status').textContent).toBe('failed');
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('execution-row')).toHaveLength(2));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    fireEvent.change(screen.getByRole('combobox', { name: 'Status' }), { target: { value: 'failed' } });
    await waitFor(() =>
      expect(screen.getAllByTestId('execution-row').map((r) => r.dataset.executionId)).toEqual(['x-failed']),
    );
  });

  it('lists schedules, or says there are none', async () => {
    const server = createFakeServer({
      'GET /api/agents/demo': agent(),
      'GET /api/agents/demo/schedules': { items: [] },
    });
    renderApp('/agents/demo?tab=schedules', server.fetch);
    expect(await screen.findByText('No schedules for this agent.')).toBeTruthy();
  });
});
