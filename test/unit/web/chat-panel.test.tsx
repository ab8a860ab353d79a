import type { ChatSummary, TaskRequest } from '@reprise/functions/schemas';
import { fireEvent, screen, waitFor } from '@solidjs/testing-library';
import { describe, expect, it } from 'vitest';
import { apiError, type Call, createFakeServer, type Handler, json, result, sse } from './fake-server';
import { agent, chatDetail, chatSummary, execution } from './fixtures';
import { renderApp } from './render-app';

const EXEC = '01JEXEC0000000000000000001';
const DEEP_LINK = `/agents/demo?tab=chat&resumeSessionId=sess-exec-1&executionId=${EXEC}`;
const OTHER = '01JOTHER00000000000000000X';

/** Executions a deep link may name, with the session each one wrote (the resume check reads them). */
const RESUMABLE: Record<string, string> = { [EXEC]: 'sess-exec-1', [OTHER]: 'sess-other' };
const resumableExecution: Handler = (call) => {
  const id = call.params.id ?? '';
  const session = RESUMABLE[id];
  return session ? json(200, execution({ id, claude_session_id: session })) : apiError(404, 'not_found');
};

/** A fake API where turn N replies "Echo (turn N)" and writes session `sess-turn-N`. */
function chatApi(opts: { chats?: ChatSummary[]; task?: Handler; forkSessionKnown?: boolean } = {}) {
  let turn = 0;
  const defaultTask: Handler = (call: Call) => {
    turn++;
    const body = call.body as TaskRequest;
    return json(202, {
      execution_id: `e${turn}`,
      status: 'queued',
      // A fork's id is only known once the run reports it.
      session_id: body.fork_session && !opts.forkSessionKnown ? null : `sess-turn-${turn}`,
      chat_session_id: body.chat_session_id ?? 'chat-new',
      events_url: `/api/executions/e${turn}/events`,
    });
  };
  return createFakeServer({
    'GET /api/me': { user_id: 'u-bob', email: 'bob@acme.test', tenant: 'acme', role: 'operator' },
    'GET /api/agents/demo': agent(),
    'GET /api/agents/demo/chats': { items: opts.chats ?? [] },
    'GET /api/chats/chat-old': chatDetail(),
    'GET /api/executions/:id': resumableExecution,
    'POST /api/agents/demo/wake': () => json(202, agent()),
    'POST /api/agents/demo/task': opts.task ?? defaultTask,
    'GET /api/executions/:id/events': (call) => {
      const n = call.params.id?.slice(1);
      return sse([
        { type: 'status', status: 'running', session_id: null },
        { type: 'text', text: 'Echo ' },
        { type: 'text', text: `(turn ${n})` },
        result(`Echo (turn ${n})`, `sess-turn-${n}`),
      ]);
    },
    'POST /api/executions/:id/cancel': () => json(202, {}),
  });
}

const input = () => screen.getByTestId('chat-input') as HTMLTextAreaElement;

async function send(text: string) {
  fireEvent.input(await screen.findByTestId('chat-input'), { target: { value: text } });
  fireEvent.click(screen.getByTestId('chat-send'));
}

const assistantTexts = () =>
  screen
    .queryAllByTestId('chat-message')
    .filter((m) => m.dataset.role === 'assistant')
    .map((m) => m.textContent);

async function sendAndWait(text: string, reply: string) {
  const before = assistantTexts().length;
  await send(text);
  await waitFor(() => {
    const texts = assistantTexts();
    expect(texts.length).toBe(before + 1);
    expect(texts.at(-1)).toContain(reply);
    expect(screen.queryByRole('status', { name: 'The agent is responding' })).toBeNull();
  });
}

describe('chat tab deep link', () => {
  it('enters resume mode from the deep link and shows the banner', async () => {
    const server = chatApi();
    renderApp(DEEP_LINK, server.fetch);
    const banner = await screen.findByTestId('resume-banner');
    expect(banner.textContent).toContain(
      'Continuing from execution 01JEXEC0… — the agent has full context from that execution.',
    );
  });

  it('re-enters resume mode when the route changes to a new deep link while the page is mounted', async () => {
    const server = chatApi();
    const app = renderApp('/agents/demo?tab=chat', server.fetch);
    await sendAndWait('hello', 'Echo (turn 1)');
    expect(screen.queryByTestId('resume-banner')).toBeNull();

    app.go(`/agents/demo?tab=chat&resumeSessionId=sess-other&executionId=${OTHER}`);
    const banner = await screen.findByTestId('resume-banner');
    expect(banner.textContent).toContain('01JOTHER…');
    expect(screen.queryAllByTestId('chat-message')).toHaveLength(0);

    await sendAndWait('what went wrong', 'Echo (turn 2)');
    expect(server.taskBodies()[1]).toEqual({
      message: 'what went wrong',
      resume_session_id: 'sess-other',
      fork_session: true,
      start_chat: true,
    });
  });

  it('enters resume mode when arriving from the execution page via Continue as Chat', async () => {
    const server = chatApi();
    const app = renderApp('/agents/demo?tab=chat', withExecution(server.fetch));
    await screen.findByTestId('chat-input');
    app.go(`/executions/${EXEC}`);
    fireEvent.click(await screen.findByTestId('continue-as-chat'));
    await screen.findByTestId('resume-banner');
    expect(app.location()).toBe(DEEP_LINK);
  });
});

/** Adds the execution detail route to a chat fake. */
function withExecution(fetch: (input: string, init?: RequestInit) => Promise<Response>) {
  return async (input: string, init?: RequestInit) =>
    input === `/api/executions/${EXEC}` ? json(200, execution()) : fetch(input, init);
}

describe('resumed conversation', () => {
  it('sends the first message as a fork that starts a chat', async () => {
    const server = chatApi();
    renderApp(DEEP_LINK, server.fetch);
    await screen.findByTestId('resume-banner');
    await sendAndWait('what went wrong', 'Echo (turn 1)');
    expect(server.taskBodies()[0]).toEqual({
      message: 'what went wrong',
      resume_session_id: 'sess-exec-1',
      fork_session: true,
      start_chat: true,
    });
  });

  it("resumes the previous turn's session in the same chat on the second message", async () => {
    const server = chatApi();
    renderApp(DEEP_LINK, server.fetch);
    await sendAndWait('what went wrong', 'Echo (turn 1)');
    await sendAndWait('and then?', 'Echo (turn 2)');
    expect(server.taskBodies()[1]).toEqual({
      message: 'and then?',
      resume_session_id: 'sess-turn-1',
      chat_session_id: 'chat-new',
    });
  });

  it("takes the next session from the 202 body's session_id when the server knows it up front", async () => {
    const server = chatApi({ forkSessionKnown: true });
    renderApp(DEEP_LINK, server.fetch);
    await sendAndWait('one', 'Echo (turn 1)');
    await sendAndWait('two', 'Echo (turn 2)');
    await sendAndWait('three', 'Echo (turn 3)');
    const bodies = server.taskBodies() as TaskRequest[];
    expect(bodies.map((b) => b.resume_session_id)).toEqual(['sess-exec-1', 'sess-turn-1', 'sess-turn-2']);
    expect(bodies.slice(1).every((b) => b.chat_session_id === 'chat-new' && !b.fork_session)).toBe(true);
  });

  it('keeps the resume context after the banner is dismissed', async () => {
    const server = chatApi();
    renderApp(DEEP_LINK, server.fetch);
    fireEvent.click(await screen.findByTestId('resume-banner-dismiss'));
    expect(screen.queryByTestId('resume-banner')).toBeNull();
    await sendAndWait('what went wrong', 'Echo (turn 1)');
    expect(server.taskBodies()[0]).toMatchObject({ resume_session_id: 'sess-exec-1', fork_session: true });
  });

  it('leaves resume mode on New Chat: no banner, a fresh chat, no resume id, deep link dropped', async () => {
    const server = chatApi();
    const app = renderApp(DEEP_LINK, server.fetch);
    await sendAndWait('what went wrong', 'Echo (turn 1)');
    fireEvent.click(screen.getByTestId('new-chat'));
    expect(screen.queryByTestId('resume-banner')).toBeNull();
    expect(screen.queryAllByTestId('chat-message')).toHaveLength(0);
    await waitFor(() => expect(app.location()).toBe('/agents/demo?tab=chat'));
    await sendAndWait('hi', 'Echo (turn 2)');
    expect(server.taskBodies()[1]).toEqual({ message: 'hi', start_chat: true });
  });

  it('leaves resume mode when another session is selected and continues from its head', async () => {
    const server = chatApi({ chats: [chatSummary()] });
    renderApp(DEEP_LINK, server.fetch);
    await screen.findByTestId('resume-banner');
    fireEvent.click(await screen.findByRole('link', { name: /Earlier conversation/ }));
    await screen.findByText('hello from before');
    expect(screen.queryByTestId('resume-banner')).toBeNull();
    await sendAndWait('next', 'Echo (turn 1)');
    expect(server.taskBodies()[0]).toEqual({
      message: 'next',
      resume_session_id: 'sess-old-head',
      chat_session_id: 'chat-old',
    });
  });

  it('does not auto-select a session while a resume is pending, even with the banner dismissed', async () => {
    const server = chatApi({ chats: [chatSummary()] });
    renderApp(DEEP_LINK, server.fetch);
    fireEvent.click(await screen.findByTestId('resume-banner-dismiss'));
    await screen.findByRole('link', { name: /Earlier conversation/ });
    await waitFor(() => expect(server.called('GET', '/api/agents/demo/chats')).toBe(true));
    expect(server.called('GET', '/api/chats/chat-old')).toBe(false);
    expect(screen.getByTestId('chat-list-item').getAttribute('aria-current')).toBeNull();
    await sendAndWait('what went wrong', 'Echo (turn 1)');
    expect(server.taskBodies()[0]).toMatchObject({ resume_session_id: 'sess-exec-1', fork_session: true });
  });

  it('auto-selects the newest session when no resume is pending', async () => {
    const server = chatApi({ chats: [chatSummary()] });
    const app = renderApp('/agents/demo?tab=chat', server.fetch);
    await screen.findByText('hello from before');
    expect(screen.getByTestId('chat-list-item').getAttribute('aria-current')).toBe('true');
    // The URL names the chat shown, so a reload shows it again.
    await waitFor(() => expect(app.location()).toContain('chatId=chat-old'));
  });
});

describe('chat problems', () => {
  it('shows the agent-not-running state on 409 agent_not_running, restores the draft and can start it', async () => {
    let started = false;
    const server = createFakeServer({
      'GET /api/agents/demo': agent(),
      'GET /api/agents/demo/chats': { items: [] },
      'POST /api/agents/demo/task': () => apiError(409, 'agent_not_running', 'Start the agent first'),
      'POST /api/agents/demo/start': () => {
        started = true;
        return json(202, agent({ status: 'running' }));
      },
    });
    renderApp('/agents/demo?tab=chat', server.fetch);
    await send('hello');
    await screen.findByTestId('agent-not-running');
    expect(input().value).toBe('hello');
    expect(screen.queryAllByTestId('chat-message')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('agent-start'));
    await waitFor(() => expect(started).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('agent-not-running')).toBeNull());
  });

  it('wakes a stopped agent when the chat opens and offers no dead end', async () => {
    const server = createFakeServer({
      'GET /api/agents/demo': agent({ status: 'stopped' }),
      'GET /api/agents/demo/chats': { items: [] },
      'POST /api/agents/demo/wake': () => json(202, agent({ status: 'starting' })),
    });
    renderApp('/agents/demo?tab=chat', server.fetch);
    await screen.findByTestId('chat-input');
    await waitFor(() => expect(server.called('POST', '/api/agents/demo/wake')).toBe(true));
    expect(screen.queryByTestId('agent-not-running')).toBeNull();
  });

  it('shows session-expired on 410 and Start fresh leaves resume mode', async () => {
    const server = chatApi({ task: () => apiError(410, 'session_expired', 'The transcript is gone') });
    renderApp(DEEP_LINK, server.fetch);
    await send('what went wrong');
    await screen.findByTestId('session-expired');
    expect(input().value).toBe('what went wrong');
    fireEvent.click(screen.getByTestId('start-fresh'));
    expect(screen.queryByTestId('resume-banner')).toBeNull();
    expect(screen.queryByTestId('session-expired')).toBeNull();
  });

  it('shows session-expired when the turn itself ends with session_expired', async () => {
    const server = chatApi();
    const fetch = async (url: string, init?: RequestInit) =>
      url.startsWith('/api/executions/e1/events')
        ? sse([
            result('', null, {
              status: 'failed',
              error: { code: 'session_expired', message: 'The transcript is gone' },
            } as never),
          ])
        : server.fetch(url, init);
    renderApp(DEEP_LINK, fetch);
    await send('what went wrong');
    expect((await screen.findByTestId('session-expired')).textContent).toContain('The transcript is gone');
  });

  it('explains 409 session_busy in place and restores the draft', async () => {
    const server = chatApi({ task: () => apiError(409, 'session_busy', 'busy') });
    renderApp('/agents/demo?tab=chat', server.fetch);
    await send('hello');
    const error = await screen.findByTestId('chat-error');
    expect(error.textContent).toContain('Another turn is still writing to this conversation');
    expect(input().value).toBe('hello');
  });
});
