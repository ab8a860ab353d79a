import type { paths } from '@reprise/functions/api/openapi.generated';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientFor, startLocalStack, type TestStack } from '../helpers/local-stack';

type Client = Awaited<ReturnType<typeof clientFor>>;
let stack: TestStack;
let bob: Client;
let dana: Client;

beforeAll(async () => {
  stack = await startLocalStack({ dynamoEndpoint: inject('dynamoEndpoint') });
  [bob, dana] = await Promise.all([
    clientFor(stack.url, 'bob@acme.test'),
    clientFor(stack.url, 'dana@acme.test'),
  ]);
});
afterAll(() => stack?.stop());

describe('the HTTP contract', () => {
  it('answers a malformed body with 400 validation_error and details', async () => {
    const res = await bob.call('POST', '/api/agents/demo/task', { message: '', timeout_seconds: 5 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      'message',
      'timeout_seconds',
    ]);
  });

  it('answers a message over 100,000 characters with 413', async () => {
    const res = await bob.call('POST', '/api/agents/demo/task', { message: 'x'.repeat(100_001) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });

  it('answers 403 when an operator who can see the agent tries to delete it', async () => {
    const res = await dana.call('DELETE', '/api/agents/demo');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  it('answers 409 conflict for a duplicate agent name and 400 for a bad one', async () => {
    expect((await bob.call('POST', '/api/agents', { name: 'demo' })).body.error.code).toBe('conflict');
    expect((await bob.call('POST', '/api/agents', { name: 'Bad_Name' })).status).toBe(400);
  });

  it('runs a task through an API key as the key creator with source api, shown once and stored hashed', async () => {
    const created = await bob.call('POST', '/api/keys', { name: 'ci' });
    expect(created.status).toBe(201);
    const listed = await bob.call('GET', '/api/keys');
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    const res = await fetch(`${stack.url}/api/agents/demo/task?wait=25`, {
      method: 'POST',
      headers: { 'x-api-key': created.body.key, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'from ci' }),
    });
    const body = (await res.json()) as {
      source: string;
      owner_user_id: string;
      triggered_by: { kind: string };
    };
    expect(body).toMatchObject({
      source: 'api',
      owner_user_id: 'usr-bob',
      triggered_by: { kind: 'api_key' },
    });
    expect((await bob.call('DELETE', `/api/keys/${created.body.id}`)).status).toBe(204);
    const revoked = await fetch(`${stack.url}/api/me`, { headers: { 'x-api-key': created.body.key } });
    expect(revoked.status).toBe(401);
  });

  it('pages executions newest first and filters by status', async () => {
    for (const message of ['a', 'b', 'c'])
      await bob.call('POST', '/api/agents/demo/task?wait=25', { message });
    const page1 = await bob.call('GET', '/api/agents/demo/executions?limit=2');
    expect(page1.body.items.map((e: { message: string }) => e.message)).toEqual(['c', 'b']);
    const page2 = await bob.call(
      'GET',
      `/api/agents/demo/executions?limit=2&cursor=${page1.body.next_cursor}`,
    );
    expect(page2.body.items[0].message).toBe('a');
    const failed = await bob.call('GET', '/api/agents/demo/executions?status=failed');
    expect(failed.body.items.every((e: { status: string }) => e.status === 'failed')).toBe(true);
    const forged = await bob.call(
      'GET',
      `/api/agents/demo/executions?cursor=${Buffer.from('{"gsi1pk":"T#globex#A#demo#E"}').toString('base64url')}`,
    );
    expect(forged.status).toBe(400);
  });

  it('publishes an OpenAPI document generated from the schemas', async () => {
    const res = await fetch(`${stack.url}/api/openapi.json`);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(JSON.stringify(doc.paths['/api/agents/{name}/task']?.post?.requestBody)).toContain(
      'resume_session_id',
    );
  });

  it('serves a client generated from the document (openapi-typescript + openapi-fetch)', async () => {
    const api = createClient<paths>({
      baseUrl: stack.url,
      headers: { authorization: `Bearer ${bob.token}` },
    });
    const me = await api.GET('/api/me');
    expect(me.data?.email).toBe('bob@acme.test');
    const run = await api.POST('/api/agents/{name}/task', {
      params: { path: { name: 'demo' }, query: { wait: 25 } },
      body: { message: 'typed client' },
    });
    expect(run.response.status).toBe(200);
    const finished = run.data && 'status' in run.data && 'id' in run.data ? run.data : null;
    expect(finished?.status).toBe('success');
    const listed = await api.GET('/api/agents/{name}/executions', {
      params: { path: { name: 'demo' }, query: { limit: 1 } },
    });
    expect(listed.data?.items[0]?.id).toBe(finished?.id);
    const missing = await api.GET('/api/executions/{id}', {
      params: { path: { id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.error.code).toBe('not_found');
  });

  it("lists the caller's tenant members by email and role, and no one else's", async () => {
    const res = await bob.call('GET', '/api/users');
    expect(res.status).toBe(200);
    const emails = res.body.items.map((u: { email: string }) => u.email).sort();
    expect(emails).toEqual(['alice@acme.test', 'bob@acme.test', 'dana@acme.test']);
    const carol = await clientFor(stack.url, 'carol@globex.test');
    const theirs = await carol.call('GET', '/api/users');
    expect(theirs.body.items.map((u: { email: string }) => u.email)).toEqual(['carol@globex.test']);
    expect(theirs.body.items[0]).toEqual({
      user_id: expect.any(String),
      email: 'carol@globex.test',
      role: 'admin',
    });
  });

  it('names the owner of each chat in the chat list', async () => {
    const me = await dana.call('GET', '/api/me');
    await dana.call('POST', '/api/agents/demo/task?wait=25', { message: 'hi', start_chat: true });
    const list = await dana.call('GET', '/api/agents/demo/chats');
    expect(list.body.items.length).toBeGreaterThan(0);
    expect(list.body.items.every((c: { owner_user_id: string }) => c.owner_user_id === me.body.user_id)).toBe(
      true,
    );
  });
});
