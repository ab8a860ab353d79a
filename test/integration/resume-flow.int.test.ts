import { describe, expect, it } from 'vitest';
import { type Client, stackPerFile } from '../helpers/local-stack';

let bob: Client;
stackPerFile((_, b) => {
  bob = b;
});

const turn = (c: Client, body: Record<string, unknown>) =>
  c.call('POST', '/api/agents/demo/task?wait=25', body);

describe('continue an execution as a chat (real CLI, scripted model)', () => {
  let first: { id: string; claude_session_id: string };
  let chatId: string;
  const sessions: string[] = [];

  it('runs a failing command and records the session id chosen up front', async () => {
    const res = await turn(bob, { message: 'run: ls /nonexistent' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.claude_session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.tool_calls[0]).toMatchObject({ name: 'Bash', is_error: true });
    expect(res.body.can_continue_as_chat).toBe(true);
    first = res.body;
  });

  it('resumes it in a new chat and the agent names the failing command', async () => {
    const res = await turn(bob, {
      message: 'what went wrong',
      resume_session_id: first.claude_session_id,
      fork_session: true,
      start_chat: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.response).toContain('ls /nonexistent');
    expect(res.body.response).toContain('run: ls /nonexistent');
    expect(res.body).toMatchObject({ source: 'chat', forked: true, resumed_from_execution_id: first.id });
    // A fork writes a new session and leaves the execution's own transcript as it was.
    expect(res.body.claude_session_id).not.toBe(first.claude_session_id);
    chatId = res.body.chat_session_id;
    sessions.push(res.body.claude_session_id);
  });

  it('keeps the whole context on the second and third resumed turns', async () => {
    const second = await turn(bob, {
      message: 'remember the word kumquat',
      resume_session_id: sessions[0],
      chat_session_id: chatId,
    });
    expect(second.status).toBe(200);
    expect(second.body.response).toMatch(/Echo \(turn 3\)/);
    const third = await turn(bob, {
      message: 'recap',
      resume_session_id: second.body.claude_session_id,
      chat_session_id: chatId,
    });
    expect(third.body.response).toContain('run: ls /nonexistent');
    expect(third.body.response).toContain('what went wrong');
    expect(third.body.response).toContain('kumquat');
  });

  it('lists the chat with its messages and links it from the execution', async () => {
    const chat = await bob.call('GET', `/api/chats/${chatId}`);
    expect(chat.body.turns).toBe(3);
    expect(chat.body.resumed_from_execution_id).toBe(first.id);
    expect(
      chat.body.messages
        .filter((m: { role: string }) => m.role === 'user')
        .map((m: { content: string }) => m.content),
    ).toEqual(['what went wrong', 'remember the word kumquat', 'recap']);
    const list = await bob.call('GET', '/api/agents/demo/chats');
    expect(list.body.items.map((c: { id: string }) => c.id)).toContain(chatId);
    const detail = await bob.call('GET', `/api/executions/${first.id}`);
    expect(detail.body.continued_in).toEqual([{ chat_session_id: chatId, created_at: expect.any(String) }]);
  });

  it('follows the chat head when a turn names only the chat', async () => {
    const res = await turn(bob, { message: 'recap', chat_session_id: chatId });
    expect(res.body.response).toContain('kumquat');
  });

  it('takes the next turn the moment the last one answered: its session is free, the head moved', async () => {
    let previous: { id: string; claude_session_id: string } | null = null;
    for (let i = 0; i < 4; i++) {
      // No pause between turns: `?wait=` answers only once the lease is released and the head set.
      const res = await turn(bob, {
        message: `next ${i}`,
        ...(previous ? { resume_session_id: previous.claude_session_id } : {}),
        chat_session_id: chatId,
      });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('success');
      // A turn on the chat's head names the run that wrote that head.
      if (previous) expect(res.body.resumed_from_execution_id).toBe(previous.id);
      previous = res.body;
    }
    const chat = await bob.call('GET', `/api/chats/${chatId}`);
    expect(chat.body.head_session_id).toBe(previous!.claude_session_id);
  });

  it('returns 202 at once and streams the run without wait', async () => {
    const res = await bob.call('POST', '/api/agents/demo/task', { message: 'hello there' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      // The agent is up with a free slot: the run is started in the same write that stores it.
      status: 'running',
      events_url: `/api/executions/${res.body.execution_id}/events`,
    });
    expect(res.body.session_id).toMatch(/^[0-9a-f-]{36}$/);
    const events = await bob.call('GET', `${res.body.events_url}?format=json&wait=20`);
    expect(events.status).toBe(200);
    expect(events.body.events[0].seq).toBe(1);
  });

  it('replays an Idempotency-Key with the same execution', async () => {
    const headers = { 'idempotency-key': 'req-42' };
    const a = await bob.call('POST', '/api/agents/demo/task', { message: 'once' }, headers);
    const b = await bob.call('POST', '/api/agents/demo/task', { message: 'once' }, headers);
    expect(b.body.execution_id).toBe(a.body.execution_id);
  });
});
