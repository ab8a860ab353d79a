import { describe, expect, it } from 'vitest';
import { type Client, stackPerFile, type TestStack } from '../helpers/local-stack';

type Reply = Awaited<ReturnType<Client['call']>>;
let stack: TestStack;
let bob: Client;
stackPerFile((s, b) => {
  stack = s;
  bob = b;
});

/** Reads an SSE response until `stopAfter` events, then drops the connection. */
async function readSse(url: string, token: string, lastEventId: number | null, stopAfter: number) {
  const controller = new AbortController();
  const res = await fetch(url, {
    headers: {
      authorization: `Bearer ${token}`,
      ...(lastEventId === null ? {} : { 'last-event-id': String(lastEventId) }),
    },
    signal: controller.signal,
  });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const events: { id: number; event: string }[] = [];
  let buffer = '';
  const decoder = new TextDecoder();
  const reader = res.body!.getReader();
  for (;;) {
    const { value: chunk, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const id = /^id: (\d+)$/m.exec(block)?.[1];
      const event = /^event: (\w+)$/m.exec(block)?.[1];
      if (id && event) events.push({ id: Number(id), event });
      end = buffer.indexOf('\n\n');
    }
    if (events.length >= stopAfter) {
      await reader.cancel();
      controller.abort();
      break;
    }
  }
  return events;
}

describe('concurrency and streaming', () => {
  it('lets one of two concurrent turns on a session write and answers the other 409, leaving the transcript intact', async () => {
    const first = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'remember mango' });
    const session = first.body.claude_session_id;
    const [a, b] = (await Promise.all(
      ['sleep: 2', 'sleep: 2'].map((message) =>
        bob.call('POST', '/api/agents/demo/task', { message, resume_session_id: session }),
      ),
    )) as [Reply, Reply];
    expect([a.status, b.status].sort()).toEqual([202, 409]);
    expect([a, b].find((r) => r.status === 409)!.body.error.code).toBe('session_busy');
    await stack.platform.drain();
    const recap = await bob.call('POST', '/api/agents/demo/task?wait=25', {
      message: 'recap',
      resume_session_id: session,
    });
    expect(recap.body.status).toBe('success');
    expect(recap.body.response).toContain('remember mango');
    expect(recap.body.response).toContain('sleep: 2');
  });

  it('runs turns on two different sessions side by side', async () => {
    const [a, b] = (await Promise.all(
      ['one', 'two'].map((message) => bob.call('POST', '/api/agents/demo/task?wait=25', { message })),
    )) as [Reply, Reply];
    expect([a.body.status, b.body.status]).toEqual(['success', 'success']);
  });

  it('keeps running when the SSE client leaves and re-joins with Last-Event-ID without gaps or duplicates', async () => {
    const started = await bob.call('POST', '/api/agents/demo/task', { message: 'sleep: 2' });
    const url = `${stack.url}${started.body.events_url}`;
    const head = await readSse(url, bob.token, null, 2);
    expect(head.map((e) => e.id)).toEqual([1, 2]);
    const rest = await readSse(url, bob.token, 2, Number.POSITIVE_INFINITY);
    const ids = [...head, ...rest].map((e) => e.id);
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(rest.at(-1)?.event).toBe('result');
    const done = await bob.call('GET', `/api/executions/${started.body.execution_id}`);
    expect(done.body.status).toBe('success');
  });

  it('cancels a running turn and refuses to cancel it twice', async () => {
    const started = await bob.call('POST', '/api/agents/demo/task', { message: 'sleep: 20' });
    await bob.call('GET', `${started.body.events_url}?format=json&wait=10`);
    const cancel = await bob.call('POST', `/api/executions/${started.body.execution_id}/cancel`);
    expect(cancel.status).toBe(202);
    const again = await bob.call('POST', `/api/executions/${started.body.execution_id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    await stack.platform.drain();
    const after = await bob.call('GET', `/api/executions/${started.body.execution_id}`);
    expect(after.body.status).toBe('cancelled');
  });
});
