import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientFor, startLocalStack, type TestStack } from '../helpers/local-stack';

type Client = Awaited<ReturnType<typeof clientFor>>;
let stack: TestStack;
let bob: Client;
let dana: Client;
let alice: Client;
let bobSession: string;
let bobExecution: string;
let otherAgentSession: string;

beforeAll(async () => {
  stack = await startLocalStack({ dynamoEndpoint: inject('dynamoEndpoint') });
  [bob, dana, alice] = await Promise.all([
    clientFor(stack.url, 'bob@acme.test'),
    clientFor(stack.url, 'dana@acme.test'),
    clientFor(stack.url, 'alice@acme.test'),
  ]);
  const run = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'run: echo hi' });
  bobSession = run.body.claude_session_id;
  bobExecution = run.body.id;
  await bob.call('POST', '/api/agents', { name: 'other', shared_with: ['dana@acme.test'] });
  await stack.platform.fleet.start({ tenant: 'acme', agent: 'other' });
  const elsewhere = await bob.call('POST', '/api/agents/other/task?wait=25', { message: 'hello' });
  otherAgentSession = elsewhere.body.claude_session_id;
});
afterAll(() => stack?.stop());

const resume = (c: Client, session: string, headers: Record<string, string> = {}) =>
  c.call(
    'POST',
    '/api/agents/demo/task',
    { message: 'what went wrong', resume_session_id: session, fork_session: true },
    headers,
  );

describe('the resume gate', () => {
  let notFoundBody: unknown;

  it('lets the owner resume their own session', async () => {
    expect((await resume(bob, bobSession)).status).toBe(202);
  });

  it('returns 404 when the session belongs to another operator of the same agent', async () => {
    const res = await resume(dana, bobSession);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('session_not_found');
    notFoundBody = res.body;
  });

  it('returns the identical 404 body for an unknown session id', async () => {
    const res = await resume(dana, '00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFoundBody);
  });

  it('returns 404 for a session the caller owns on another agent', async () => {
    const res = await resume(bob, otherAgentSession);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFoundBody);
  });

  it.each(['dispatched', 'dispatched_async', '../etc/passwd', '-rf'])(
    'returns 400 for %s, even for an admin',
    async (id) => {
      const res = await resume(alice, id);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_session_id');
    },
  );

  it("lets a tenant admin resume someone else's session", async () => {
    // bob's fork above may still be running: forks only read the session, so no 409 here.
    expect((await resume(alice, bobSession)).status).toBe(202);
  });

  it('ignores an X-Source-Agent header', async () => {
    const res = await resume(dana, bobSession, { 'x-source-agent': 'demo' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFoundBody);
  });

  it('computes can_continue_as_chat per caller', async () => {
    await stack.platform.drain();
    const flags = await Promise.all(
      [bob, dana, alice].map(
        async (c) => (await c.call('GET', `/api/executions/${bobExecution}`)).body.can_continue_as_chat,
      ),
    );
    expect(flags).toEqual([true, false, true]);
  });

  it('shows dana the execution itself (agent-scoped) but not who continued it', async () => {
    await bob.call('POST', '/api/agents/demo/task?wait=25', {
      message: 'again',
      resume_session_id: bobSession,
      fork_session: true,
      start_chat: true,
    });
    const asDana = await dana.call('GET', `/api/executions/${bobExecution}`);
    expect(asDana.status).toBe(200);
    expect(asDana.body.continued_in).toEqual([]);
    const asBob = await bob.call('GET', `/api/executions/${bobExecution}`);
    expect(asBob.body.continued_in).toHaveLength(1);
  });

  it("refuses a turn appended to someone else's chat", async () => {
    const chats = await bob.call('GET', '/api/agents/demo/chats');
    const res = await dana.call('POST', '/api/agents/demo/task', {
      message: 'hi',
      chat_session_id: chats.body.items[0].id,
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});
