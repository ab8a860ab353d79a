import { fireEvent, screen, waitFor } from '@solidjs/testing-library';
import { describe, expect, it } from 'vitest';
import { createFakeServer, json, liveSse, result, sse } from './fake-server';
import { execution } from './fixtures';
import { renderApp } from './render-app';

const ID = '01JEXEC0000000000000000001';

describe('execution detail', () => {
  it('hides Continue as Chat when the server says the caller cannot continue, session id or not', async () => {
    const server = createFakeServer({
      [`GET /api/executions/${ID}`]: execution({ can_continue_as_chat: false }),
    });
    renderApp(`/executions/${ID}`, server.fetch);
    await screen.findByText('sess-exec-1');
    expect(screen.queryByTestId('continue-as-chat')).toBeNull();
  });

  it('shows Continue as Chat when allowed and links to the chat deep link', async () => {
    const server = createFakeServer({
      [`GET /api/executions/${ID}`]: execution(),
      'GET /api/agents/demo': {
        name: 'demo',
        runtime: 'claude',
        status: 'running',
        owner: 'bob',
        shared_with: [],
      },
      'GET /api/agents/demo/chats': { items: [] },
    });
    const app = renderApp(`/executions/${ID}`, server.fetch);
    fireEvent.click(await screen.findByTestId('continue-as-chat'));
    await waitFor(() =>
      expect(app.location()).toBe(`/agents/demo?tab=chat&resumeSessionId=sess-exec-1&executionId=${ID}`),
    );
  });

  it('renders the response as markdown with inline event handlers removed', async () => {
    const server = createFakeServer({
      [`GET /api/executions/${ID}`]: execution({
        response: '**bold** <img src=x onerror=alert(1)> <a href="javascript:alert(2)">link</a>',
      }),
    });
    const { container } = renderApp(`/executions/${ID}`, server.fetch);
    await waitFor(() => expect(container.querySelector('.markdown strong')?.textContent).toBe('bold'));
    const img = container.querySelector('.markdown img');
    expect(img).not.toBeNull();
    expect(img?.hasAttribute('onerror')).toBe(false);
    expect(container.querySelector('.markdown a')?.getAttribute('href') ?? '').not.toContain('javascript:');
    expect(container.innerHTML).not.toContain('onerror');
  });

  it('shows the error, tool calls and status badge', async () => {
    const server = createFakeServer({ [`GET /api/executions/${ID}`]: execution() });
    renderApp(`/executions/${ID}`, server.fetch);
    expect((await screen.findByTestId('execution-status')).textContent).toBe('failed');
    expect(screen.getByText('make: *** [deploy] Error 2')).toBeTruthy();
    expect(screen.getByText('cli_failed')).toBeTruthy();
    expect(screen.getAllByText('Bash').length).toBeGreaterThan(0);
  });

  it('follows a running execution and refetches it when its result arrives', async () => {
    let fetches = 0;
    const server = createFakeServer({
      [`GET /api/executions/${ID}`]: () => {
        fetches++;
        return fetches === 1
          ? execution({ status: 'running', can_continue_as_chat: false, response: null, error: null })
          : execution({ status: 'success', response: 'all done', error: null });
      },
      [`GET /api/executions/${ID}/events`]: () =>
        sse([{ type: 'text', text: 'hi' }, result('all done', 'sess-exec-1')]),
    });
    renderApp(`/executions/${ID}`, server.fetch);
    await waitFor(() => expect(screen.getByTestId('execution-status').textContent).toBe('success'));
    expect(fetches).toBe(2);
    expect(screen.getByText('all done')).toBeTruthy();
    expect(screen.getByTestId('continue-as-chat')).toBeTruthy();
  });

  it('cancels a running execution from its Cancel button', async () => {
    const stream = liveSse();
    let cancelled = false;
    const server = createFakeServer({
      [`GET /api/executions/${ID}`]: () =>
        execution({ status: cancelled ? 'cancelled' : 'running', response: null }),
      [`GET /api/executions/${ID}/events`]: () => stream.response,
      [`POST /api/executions/${ID}/cancel`]: () => {
        cancelled = true;
        return json(202, {});
      },
    });
    renderApp(`/executions/${ID}`, server.fetch);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel run' }));
    await waitFor(() => expect(screen.getByTestId('execution-status').textContent).toBe('cancelled'));
    expect(cancelled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Cancel run' })).toBeNull();
  });
});
