import type { AgentEvent } from '@reprise/functions/agent-events';
import { fireEvent, screen, waitFor } from '@solidjs/testing-library';
import { describe, expect, it } from 'vitest';
import { apiError, createFakeServer, type Handler, json, liveSse, result } from './fake-server';
import { agent, chatDetail, chatSummary, execution, T0 } from './fixtures';
import { renderApp } from './render-app';

const EXEC = '01JEXEC0000000000000000001';
const DEEP_LINK = `/agents/demo?tab=chat&resumeSessionId=sess-exec-1&executionId=${EXEC}`;

const accepted = (over: Record<string, unknown> = {}) =>
  json(202, {
    execution_id: 'e1',
    status: 'queued',
    session_id: null,
    chat_session_id: 'chat-new',
    events_url: '/api/executions/e1/events',
    ...over,
  });

function chatServer(
  opts: { exec?: Handler; stream?: ReturnType<typeof liveSse>; extra?: Record<string, Handler> } = {},
) {
  const stream = opts.stream ?? liveSse();
  return {
    stream,
    server: createFakeServer({
      'GET /api/me': { user_id: 'u-bob', email: 'bob@acme.test', tenant: 'acme', role: 'operator' },
      'GET /api/users': { items: [{ user_id: 'u-bob', email: 'bob@acme.test', role: 'operator' }] },
      'GET /api/agents/demo': agent(),
      'GET /api/agents/demo/chats': { items: [] },
      'POST /api/agents/demo/wake': () => json(202, agent()),
      'GET /api/executions/:id': opts.exec ?? (() => json(200, execution())),
      'POST /api/agents/demo/task': () => accepted(),
      'GET /api/executions/e1/events': () => stream.response,
      'POST /api/executions/e1/cancel': () => json(202, {}),
      ...opts.extra,
    }),
  };
}

async function send(text: string) {
  fireEvent.input(await screen.findByTestId('chat-input'), { target: { value: text } });
  fireEvent.click(screen.getByTestId('chat-send'));
}
const assistant = () => screen.getAllByTestId('chat-message').find((m) => m.dataset.role === 'assistant');
const emit = (s: ReturnType<typeof liveSse>, ev: Record<string, unknown>) => s.emit(ev as AgentEvent);

describe('the URL follows the conversation', () => {
  it('names the chat once the first resumed turn creates it, dropping the deep link', async () => {
    const { server, stream } = chatServer();
    const app = renderApp(DEEP_LINK, server.fetch);
    await screen.findByTestId('resume-banner');
    await send('what went wrong');
    await waitFor(() => expect(app.location()).toBe('/agents/demo?tab=chat&chatId=chat-new'));
    // The turn keeps streaming in the same view after the URL changed.
    emit(stream, { type: 'text', text: 'It failed' });
    emit(stream, result('It failed', 'sess-1') as Record<string, unknown>);
    await waitFor(() => expect(assistant()?.textContent).toContain('It failed'));
    expect(server.taskBodies()).toHaveLength(1);
    expect(screen.getByTestId('resume-banner')).toBeTruthy();
  });

  it('drops the chat from the URL on New chat', async () => {
    const { server } = chatServer({ extra: { 'GET /api/chats/chat-old': () => json(200, chatDetail()) } });
    const app = renderApp('/agents/demo?tab=chat&chatId=chat-old', server.fetch);
    await screen.findByText('hello from before');
    fireEvent.click(screen.getByTestId('new-chat'));
    await waitFor(() => expect(app.location()).toBe('/agents/demo?tab=chat'));
  });
});

describe('check before promising', () => {
  it('shows the refusal at once for an execution the server does not know, and sends nothing', async () => {
    const { server } = chatServer({ exec: () => apiError(404, 'not_found', 'Execution not found') });
    renderApp(DEEP_LINK, server.fetch);
    const refused = await screen.findByTestId('resume-refused');
    expect(refused.textContent).toContain('does not exist, or you do not have access to it');
    expect(screen.queryByTestId('resume-banner')).toBeNull();
    fireEvent.input(screen.getByTestId('chat-input'), { target: { value: 'hi' } });
    expect((screen.getByTestId('chat-send') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(screen.getByTestId('chat-input'), { key: 'Enter' });
    expect(server.taskBodies()).toHaveLength(0);
  });

  it('refuses when the server says the caller may not continue it', async () => {
    const { server } = chatServer({ exec: () => json(200, execution({ can_continue_as_chat: false })) });
    renderApp(DEEP_LINK, server.fetch);
    expect((await screen.findByTestId('resume-refused')).textContent).toContain('You cannot continue');
  });

  it('refuses a link whose session is not the execution’s', async () => {
    const { server } = chatServer({ exec: () => json(200, execution({ claude_session_id: 'sess-else' })) });
    renderApp(DEEP_LINK, server.fetch);
    expect((await screen.findByTestId('resume-refused')).textContent).toContain('does not match');
  });

  it('promises full context only once the server agreed, and links the banner to the run', async () => {
    const { server } = chatServer();
    renderApp(DEEP_LINK, server.fetch);
    const banner = await screen.findByTestId('resume-banner');
    expect(server.called('GET', `/api/executions/${EXEC}`)).toBe(true);
    expect(banner.querySelector('a')?.getAttribute('href')).toBe(`/executions/${EXEC}`);
  });

  it('moves focus to the message box when the banner is dismissed', async () => {
    const { server } = chatServer();
    renderApp(DEEP_LINK, server.fetch);
    fireEvent.click(await screen.findByTestId('resume-banner-dismiss'));
    expect(document.activeElement).toBe(screen.getByTestId('chat-input'));
  });
});

describe('model trouble and waking, in the chat', () => {
  it('says the model is overloaded and retrying, then shows one clean error without internal addresses', async () => {
    const { server, stream } = chatServer();
    renderApp('/agents/demo?tab=chat', server.fetch);
    await send('model-error: 529');
    emit(stream, { type: 'status', status: 'running', session_id: 'sess-1' });
    emit(stream, { type: 'error', code: 'model_retry', message: 'Model API unavailable (529); retry 1' });
    expect((await screen.findByTestId('model-retrying')).textContent).toContain(
      'The model is overloaded — retrying (attempt 1)',
    );
    emit(stream, { type: 'error', code: 'model_retry', message: 'Model API unavailable (529); retry 2' });
    await waitFor(() => expect(screen.getByTestId('model-retrying').textContent).toContain('attempt 2'));
    const leaky =
      'API Error: 529 overloaded (http://127.0.0.1:41301/v1/messages)\n    at send (file.js:10:5)';
    emit(stream, {
      ...result(leaky, 'sess-1'),
      status: 'failed',
      error: { code: 'model_error', message: leaky },
    });
    await waitFor(() => expect(screen.queryByTestId('model-retrying')).toBeNull());
    const text = assistant()?.textContent ?? '';
    expect(text).toContain('Failed: API Error: 529 overloaded');
    expect(text).not.toMatch(/127\.0\.0\.1|41301|file\.js/);
    // Once: not as the reply text and again as the error, and not in a banner.
    expect(text.split('529 overloaded')).toHaveLength(2);
    expect(screen.queryByTestId('chat-error')).toBeNull();
  });

  it('shows "Waking the agent…" with the seconds while the run waits, then streams the answer', async () => {
    const { server, stream } = chatServer();
    renderApp('/agents/demo?tab=chat', server.fetch);
    await send('hello');
    emit(stream, { type: 'status', status: 'queued', waiting_for: 'agent', session_id: null });
    const waking = await screen.findByTestId('agent-waking');
    expect(waking.textContent).toMatch(/Waking the agent….*\d+ s/);
    // The message stays in the list as pending.
    expect(screen.getAllByTestId('chat-message').map((m) => m.dataset.role)).toEqual(['user', 'assistant']);
    emit(stream, { type: 'status', status: 'running', session_id: 'sess-1' });
    await waitFor(() => expect(screen.queryByTestId('agent-waking')).toBeNull());
    emit(stream, { type: 'text', text: 'Echo (turn 1)' });
    await waitFor(() => expect(assistant()?.textContent).toContain('Echo (turn 1)'));
  });

  it('wakes the agent when the Chat tab opens and ignores a wake failure', async () => {
    const { server } = chatServer({
      extra: { 'POST /api/agents/demo/wake': () => apiError(500, 'internal', 'boom') },
    });
    renderApp('/agents/demo?tab=executions', server.fetch);
    await screen.findByTestId('run-message');
    expect(server.called('POST', '/api/agents/demo/wake')).toBe(false);
    fireEvent.click(screen.getByRole('tab', { name: 'Chat' }));
    await waitFor(() => expect(server.called('POST', '/api/agents/demo/wake')).toBe(true));
    expect(screen.queryByTestId('chat-error')).toBeNull();
    expect(screen.queryByText(/boom/)).toBeNull();
  });
});

describe('stopping', () => {
  it('keeps a stopped turn in the log, marked stopped', async () => {
    const { server, stream } = chatServer();
    renderApp('/agents/demo?tab=chat', server.fetch);
    await send('sleep: 30');
    emit(stream, { type: 'text', text: 'partial answer' });
    await waitFor(() => expect(assistant()?.textContent).toContain('partial answer'));
    fireEvent.click(screen.getByRole('button', { name: 'Stop turn' }));
    await waitFor(() => expect(server.called('POST', '/api/executions/e1/cancel')).toBe(true));
    expect(screen.getByTestId('turn-stopped')).toBeTruthy();
    expect(screen.getAllByTestId('chat-message')[0]?.textContent).toContain('sleep: 30');
    expect(assistant()?.textContent).toContain('partial answer');
  });

  it('asks before "Stop agent" stops the whole agent, and Keep running backs out', async () => {
    const { server } = chatServer({
      extra: { 'POST /api/agents/demo/stop': () => json(202, agent({ status: 'stopped' })) },
    });
    renderApp('/agents/demo?tab=chat', server.fetch);
    fireEvent.click(await screen.findByTestId('agent-stop'));
    expect(server.called('POST', '/api/agents/demo/stop')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Keep running' }));
    expect(server.called('POST', '/api/agents/demo/stop')).toBe(false);
    fireEvent.click(screen.getByTestId('agent-stop'));
    fireEvent.click(screen.getByTestId('agent-stop-confirm'));
    await waitFor(() => expect(server.called('POST', '/api/agents/demo/stop')).toBe(true));
  });
});

describe('the chat list', () => {
  it('shows title, owner for an admin, relative activity, turns and the execution it continued', async () => {
    const recent = new Date(Date.now() - 3 * 60_000).toISOString();
    const { server } = chatServer({
      extra: {
        'GET /api/me': () =>
          json(200, { user_id: 'u-alice', email: 'alice@acme.test', tenant: 'acme', role: 'admin' }),
        'GET /api/users': () =>
          json(200, {
            items: [
              { user_id: 'u-alice', email: 'alice@acme.test', role: 'admin' },
              { user_id: 'u-bob', email: 'bob@acme.test', role: 'operator' },
            ],
          }),
        'GET /api/agents/demo/chats': () =>
          json(200, {
            items: [
              chatSummary({
                id: 'c1',
                title: 'what went wrong',
                turns: 1,
                updated_at: recent,
                resumed_from_execution_id: EXEC,
              }),
              chatSummary({ id: 'c2', title: 'mine', turns: 3, owner_user_id: 'u-alice', updated_at: T0 }),
            ],
          }),
        'GET /api/chats/c1': () => json(200, chatDetail({ id: 'c1' })),
      },
    });
    renderApp(DEEP_LINK, server.fetch);
    const list = await screen.findByTestId('chat-list');
    await waitFor(() => expect(list.textContent).toContain('bob@acme.test'));
    const [first, second] = screen.getAllByTestId('chat-list-item');
    expect(first?.textContent).toContain('what went wrong');
    expect(first?.textContent).toContain('3 min ago');
    expect(first?.textContent).toContain('1 turn');
    expect(first?.textContent).toContain('from run 01JEXEC0…');
    expect(first?.querySelector('time')?.getAttribute('title')).toBeTruthy();
    expect(second?.textContent).toContain('3 turns');
    expect(second?.textContent).not.toContain('alice@acme.test');
    expect(first?.getAttribute('href')).toBe('/agents/demo?tab=chat&chatId=c1');
    // One tab stop for the list; arrow keys move within it.
    expect([first, second].map((a) => a?.getAttribute('tabindex'))).toEqual(['0', '-1']);
    first?.focus();
    fireEvent.keyDown(first as HTMLElement, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(second);
  });
});
