import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientFor, startLocalStack, type TestStack } from '../helpers/local-stack';

type Client = Awaited<ReturnType<typeof clientFor>>;
let stack: TestStack;
let carol: Client;
let bob: Client;
let dana: Client;
let alice: Client;
const ids = { execution: '', chat: '', session: '', key: '' };
/** Bob's plain run and the private chat he continued it in. */
const branch = { execution: '', chat: '', turn: '', session: '' };

beforeAll(async () => {
  stack = await startLocalStack({ dynamoEndpoint: inject('dynamoEndpoint') });
  [bob, carol, dana, alice] = await Promise.all([
    clientFor(stack.url, 'bob@acme.test'),
    clientFor(stack.url, 'carol@globex.test'),
    clientFor(stack.url, 'dana@acme.test'),
    clientFor(stack.url, 'alice@acme.test'),
  ]);
  const run = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'hello', start_chat: true });
  ids.execution = run.body.id;
  ids.chat = run.body.chat_session_id;
  ids.session = run.body.claude_session_id;
  ids.key = (await bob.call('POST', '/api/keys', { name: 'ci' })).body.id;
  const plain = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'plain run' });
  const turn = await bob.call('POST', '/api/agents/demo/task?wait=25', {
    message: 'private follow-up',
    resume_session_id: plain.body.claude_session_id,
    fork_session: true,
    start_chat: true,
  });
  Object.assign(branch, {
    execution: plain.body.id,
    chat: turn.body.chat_session_id,
    turn: turn.body.id,
    session: turn.body.claude_session_id,
  });
});
afterAll(() => stack?.stop());

/** Every route, aimed at tenant acme's things, called by globex's admin. */
const routes = (): [string, string, unknown?][] => [
  ['GET', '/api/agents/demo'],
  ['DELETE', '/api/agents/demo'],
  ['POST', '/api/agents/demo/start'],
  ['POST', '/api/agents/demo/stop'],
  ['PUT', '/api/agents/demo/sharing', { shared_with: ['carol@globex.test'] }],
  ['POST', '/api/agents/demo/task', { message: 'hi' }],
  ['POST', '/api/agents/demo/task', { message: 'hi', resume_session_id: ids.session }],
  ['GET', '/api/agents/demo/executions'],
  ['GET', '/api/agents/demo/chats'],
  ['GET', `/api/executions/${ids.execution}`],
  ['GET', `/api/executions/${ids.execution}/events?format=json`],
  ['POST', `/api/executions/${ids.execution}/cancel`],
  ['GET', `/api/chats/${ids.chat}`],
  ['DELETE', `/api/keys/${ids.key}`],
];

describe('another tenant', () => {
  it('gets 404 from every route that names a thing of tenant acme', async () => {
    for (const [method, path, body] of routes()) {
      const res = await carol.call(method, path, body);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
      expect(JSON.stringify(res.body)).not.toContain(ids.session);
    }
  });

  it('sees none of tenant acme in its own lists', async () => {
    expect((await carol.call('GET', '/api/agents')).body.items).toEqual([]);
    expect((await carol.call('GET', '/api/keys')).body.items).toEqual([]);
  });

  it('gets 401 from every route without credentials', async () => {
    for (const [method, path, body] of routes()) {
      const res = await fetch(`${stack.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
    }
  });

  it('can still create an agent of the same name in its own tenant', async () => {
    const res = await carol.call('POST', '/api/agents', { name: 'demo' });
    expect(res.status).toBe(201);
    expect(res.body.owner).toBe('carol@globex.test');
  });
});

/** Every route that names a chat of Bob's or one of its turns, called by Dana, who shares the agent. */
const chatRoutes = (): [string, string, unknown?][] => [
  ['GET', `/api/executions/${ids.execution}`],
  ['GET', `/api/executions/${ids.execution}/events?format=json`],
  ['GET', `/api/executions/${ids.execution}/events`],
  ['POST', `/api/executions/${ids.execution}/cancel`],
  ['GET', `/api/executions/${branch.turn}`],
  ['GET', `/api/executions/${branch.turn}/events?format=json`],
  ['GET', `/api/chats/${ids.chat}`],
  ['GET', `/api/chats/${branch.chat}`],
  ['POST', '/api/agents/demo/task', { message: 'hi', chat_session_id: branch.chat }],
  ['POST', '/api/agents/demo/task', { message: 'hi', resume_session_id: branch.session }],
  ['POST', '/api/agents/demo/task', { message: 'hi', resume_session_id: ids.session, fork_session: true }],
];

describe('a private chat on a shared agent', () => {
  it("is 404 on every route for another operator who can see the agent, and never shows the chat's text", async () => {
    for (const [method, path, body] of chatRoutes()) {
      const res = await dana.call(method, path, body);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
      expect(JSON.stringify(res.body)).not.toContain('private follow-up');
    }
  });

  it("is left out of the other operator's lists, and its entry out of the execution it continued", async () => {
    const listed = (await dana.call('GET', '/api/agents/demo/executions?limit=100')).body.items;
    const listedIds = listed.map((e: { id: string }) => e.id);
    expect(listedIds).toContain(branch.execution);
    expect(listedIds).not.toContain(branch.turn);
    expect(listedIds).not.toContain(ids.execution);
    const chatsOnly = await dana.call('GET', '/api/agents/demo/executions?source=chat');
    expect(chatsOnly.body).toEqual({ items: [], next_cursor: null });
    expect((await dana.call('GET', '/api/agents/demo/chats')).body.items).toEqual([]);
    const origin = await dana.call('GET', `/api/executions/${branch.execution}`);
    expect(origin.status).toBe(200);
    expect(origin.body.continued_in).toEqual([]);
  });

  it('stays visible to its owner and to tenant admins', async () => {
    for (const who of [bob, alice]) {
      expect((await who.call('GET', `/api/executions/${branch.turn}`)).status).toBe(200);
      expect((await who.call('GET', `/api/chats/${branch.chat}`)).status).toBe(200);
      const origin = await who.call('GET', `/api/executions/${branch.execution}`);
      expect(origin.body.continued_in.map((c: { chat_session_id: string }) => c.chat_session_id)).toEqual([
        branch.chat,
      ]);
      const listed = (await who.call('GET', '/api/agents/demo/executions?source=chat')).body.items;
      expect(listed.map((e: { id: string }) => e.id)).toEqual(
        expect.arrayContaining([branch.turn, ids.execution]),
      );
    }
  });
});
