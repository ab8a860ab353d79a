import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientFor, startLocalStack, type TestStack } from '../helpers/local-stack';

type Client = Awaited<ReturnType<typeof clientFor>>;
let stack: TestStack;
let carol: Client;
const ids = { execution: '', chat: '', session: '', key: '' };

beforeAll(async () => {
  stack = await startLocalStack({ dynamoEndpoint: inject('dynamoEndpoint') });
  const bob = await clientFor(stack.url, 'bob@acme.test');
  carol = await clientFor(stack.url, 'carol@globex.test');
  const run = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'hello', start_chat: true });
  ids.execution = run.body.id;
  ids.chat = run.body.chat_session_id;
  ids.session = run.body.claude_session_id;
  ids.key = (await bob.call('POST', '/api/keys', { name: 'ci' })).body.id;
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
