import { fireEvent, screen, waitFor } from '@solidjs/testing-library';
import { describe, expect, it } from 'vitest';
import { createFakeServer, json, liveSse, result, sse } from './fake-server';
import { agent, execution } from './fixtures';
import { renderApp } from './render-app';

function streamingApi() {
  const stream = liveSse();
  let cancelled = false;
  const server = createFakeServer({
    'GET /api/agents/demo': agent(),
    'GET /api/agents/demo/chats': { items: [] },
    'POST /api/agents/demo/task': () =>
      json(202, {
        execution_id: 'e1',
        status: 'running',
        session_id: 'sess-1',
        chat_session_id: 'chat-1',
        events_url: '/api/executions/e1/events',
      }),
    'GET /api/executions/e1/events': () => stream.response,
    'POST /api/executions/e1/cancel': () => {
      cancelled = true;
      return json(202, {});
    },
  });
  return { server, stream, cancelled: () => cancelled };
}

const assistant = () => screen.getAllByTestId('chat-message').find((m) => m.dataset.role === 'assistant');

async function sendHello() {
  fireEvent.input(await screen.findByTestId('chat-input'), { target: { value: 'run: ls' } });
  fireEvent.keyDown(screen.getByTestId('chat-input'), { key: 'Enter' });
  await waitFor(() => expect(assistant()).toBeTruthy());
}

describe('streamed assistant turn', () => {
  it('appends text deltas and shows tool chips as events arrive, then finalises on result', async () => {
    const { server, stream } = streamingApi();
    renderApp('/agents/demo?tab=chat', server.fetch);
    await sendHello();
    expect(server.taskBodies()).toEqual([{ message: 'run: ls', start_chat: true }]);

    stream.emit({ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } });
    await waitFor(() => expect(assistant()?.textContent).toContain('Bash'));
    stream.emit({ type: 'tool_result', tool_use_id: 't1', is_error: false, output_preview: 'README.md' });
    stream.emit({ type: 'text', text: 'ran `ls`' });
    await waitFor(() => expect(assistant()?.textContent).toContain('ran ls'));
    stream.emit({ type: 'text', text: ': exit 0' });
    await waitFor(() => expect(assistant()?.textContent).toContain('ran ls: exit 0'));
    expect(assistant()?.querySelector('.typing')).not.toBeNull();

    stream.emit(result('ran `ls`: exit 0', 'sess-1'));
    await waitFor(() => expect(assistant()?.querySelector('.typing')).toBeNull());
    expect(assistant()?.querySelector('.tool-ok')?.textContent).toContain('README.md');
  });

  it('Stop cancels the running turn and puts the draft back', async () => {
    const { server, stream, cancelled } = streamingApi();
    renderApp('/agents/demo?tab=chat', server.fetch);
    await sendHello();
    stream.emit({ type: 'text', text: 'working' });
    await waitFor(() => expect(assistant()?.textContent).toContain('working'));
    fireEvent.keyDown(screen.getByTestId('chat-input'), { key: 'Escape' });
    await waitFor(() => expect(cancelled()).toBe(true));
    expect((screen.getByTestId('chat-input') as HTMLTextAreaElement).value).toBe('run: ls');
    // What was said stays visible, marked stopped (the agent's session may remember it).
    expect(screen.queryAllByTestId('chat-message')).toHaveLength(2);
    expect(assistant()?.textContent).toContain('working');
    expect(screen.getByTestId('turn-stopped').textContent).toContain('Stopped');
    expect(assistant()?.querySelector('.typing')).toBeNull();
  });

  it('does not send on Shift+Enter (that key makes a new line)', async () => {
    const { server } = streamingApi();
    renderApp('/agents/demo?tab=chat', server.fetch);
    fireEvent.input(await screen.findByTestId('chat-input'), { target: { value: 'line one' } });
    fireEvent.keyDown(screen.getByTestId('chat-input'), { key: 'Enter', shiftKey: true });
    expect(server.taskBodies()).toHaveLength(0);
  });

  it('settles a turn that ended without a result event from the stored execution', async () => {
    const server = createFakeServer({
      'GET /api/agents/demo': agent(),
      'GET /api/agents/demo/chats': { items: [] },
      'POST /api/agents/demo/task': () =>
        json(202, {
          execution_id: 'e1',
          status: 'queued',
          session_id: 'sess-1',
          chat_session_id: 'c1',
          events_url: '',
        }),
      'GET /api/executions/e1/events': (call) =>
        call.query.get('format') === 'json' ? { events: [], done: true } : sse([]),
      'GET /api/executions/e1': execution({
        id: 'e1',
        status: 'failed',
        response: null,
        error: { code: 'agent_unreachable', message: 'The agent did not answer' },
      }),
    });
    renderApp('/agents/demo?tab=chat', server.fetch);
    await sendHello();
    await waitFor(() => expect(assistant()?.textContent).toContain('The agent did not answer'));
    expect(assistant()?.querySelector('.typing')).toBeNull();
    // Said once, on the message: no second copy in a banner.
    expect(screen.queryByTestId('chat-error')).toBeNull();
  });
});
