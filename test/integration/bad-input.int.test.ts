import { request } from 'node:http';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { type Client, stackPerFile, type TestStack } from '../helpers/local-stack';

let stack: TestStack;
let bob: Client;
stackPerFile((s, b) => {
  stack = s;
  bob = b;
});

const executionCount = async () =>
  (await bob.call('GET', '/api/agents/demo/executions?limit=100')).body.items.length as number;

const raw = (path: string, init: RequestInit) =>
  fetch(`${stack.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${bob.token}`, ...(init.headers as Record<string, string>) },
  });

describe('bad input is refused before anything runs', () => {
  it('answers an empty resume_session_id with 400 invalid_session_id and stores no run', async () => {
    const before = await executionCount();
    const res = await bob.call('POST', '/api/agents/demo/task', { message: 'hi', resume_session_id: '' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_session_id');
    expect(await executionCount()).toBe(before);
  });

  it.each([
    ['model', { model: 'claude\u0000x' }],
    ['system_prompt', { system_prompt: 'be brief\u0000' }],
    ['allowed_tools.0', { allowed_tools: ['Bash\u0000'] }],
  ])('answers a NUL character in %s with 400 validation_error naming the field', async (path, extra) => {
    const res = await bob.call('POST', '/api/agents/demo/task', { message: 'hi', ...extra });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual([path]);
  });

  it('answers a whitespace-only message with 400 validation_error', async () => {
    const res = await bob.call('POST', '/api/agents/demo/task', { message: ' \n\t ' });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(['message']);
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['no content type', {}],
  ])('answers a JSON body sent as %s with 415 and the error body', async (_, headers) => {
    const before = await executionCount();
    const body = new TextEncoder().encode(JSON.stringify({ message: 'hi' }));
    const res = await raw('/api/agents/demo/task', { method: 'POST', headers, body });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type');
    expect(await executionCount()).toBe(before);
  });

  it('still accepts a bodiless POST without a content type', async () => {
    const res = await raw('/api/agents/demo/start', { method: 'POST' });
    expect(res.status).toBe(202);
  });

  it.each([
    ['DELETE', '/api/agents/demo/task', 'POST'],
    ['PATCH', '/api/agents/demo', 'DELETE, GET, HEAD'],
    ['PUT', '/api/executions/01ARZ3NDEKTSV4RRFFQ69G5FAV', 'GET, HEAD'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const res = await raw(path, { method, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
  });

  it('answers oversized headers with 431 and the error body', async () => {
    const url = new URL(stack.url);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: '/api/me', headers: { 'x-padding': 'a'.repeat(20_000) } },
        (res) => {
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body).error.code).toBe('headers_too_large');
  });
});

describe('Idempotency-Key', () => {
  it('replays the first run for the same body and answers 422 for a different one', async () => {
    const key = { 'idempotency-key': `k-${Date.now()}` };
    const first = await bob.call('POST', '/api/agents/demo/task', { message: 'once' }, key);
    const again = await bob.call('POST', '/api/agents/demo/task', { message: 'once' }, key);
    expect(first.status).toBe(202);
    expect(again.body.execution_id).toBe(first.body.execution_id);
    const other = await bob.call('POST', '/api/agents/demo/task', { message: 'twice' }, key);
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reused');
  });

  it('answers a key with characters the contract does not allow with 400', async () => {
    const before = await executionCount();
    const res = await bob.call(
      'POST',
      '/api/agents/demo/task',
      { message: 'hi' },
      { 'idempotency-key': 'has space' },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('Idempotency-Key');
    const long = await bob.call(
      'POST',
      '/api/agents/demo/task',
      { message: 'hi' },
      { 'idempotency-key': 'k'.repeat(256) },
    );
    expect(long.status).toBe(400);
    expect(await executionCount()).toBe(before);
  });
});

describe('readiness', () => {
  it('answers /api/ready with 200 and every check ok, without credentials', async () => {
    const res = await fetch(`${stack.url}/api/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: { table: 'ok', agents: 'ok' } });
  });

  // Last in the file: it takes the stack's storage away.
  it('answers 503 not_ready once the table cannot be reached, while /api/health stays 200', async () => {
    const dynamo = new DynamoDBClient({
      endpoint: stack.dynamoEndpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    await dynamo.send(new DeleteTableCommand({ TableName: stack.tableName }));
    dynamo.destroy();
    const res = await fetch(`${stack.url}/api/ready`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      error: {
        code: 'not_ready',
        message: 'Not ready yet: table',
        details: [{ table: 'failing', agents: 'ok' }],
      },
    });
    expect((await fetch(`${stack.url}/api/health`)).status).toBe(200);
  });
});
