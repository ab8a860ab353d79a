import type { AgentEvent } from '@reprise/functions/agent-events';
import { describe, expect, it } from 'vitest';
import { createApi } from '~/api/client';
import { followEvents, type StreamEvent } from '~/api/events';
import { createFakeServer, json, result } from './fake-server';

const stream = (body: string) => new Response(body, { headers: { 'content-type': 'text/event-stream' } });
const frame = (seq: number, data: AgentEvent) =>
  `id: ${seq}\nevent: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;

function apiFor(fetch: ReturnType<typeof createFakeServer>['fetch']) {
  return createApi({ baseUrl: '', fetch, getToken: () => 'tok', onUnauthorized: () => {} });
}

describe('followEvents', () => {
  it('re-joins with Last-Event-ID after the stream drops and delivers each event once', async () => {
    let attempt = 0;
    const server = createFakeServer({
      'GET /api/executions/e1/events': (call) => {
        if (call.query.get('format') === 'json') return { events: [], done: false };
        attempt++;
        return attempt === 1
          ? stream(frame(1, { type: 'text', text: 'a' }) + frame(2, { type: 'text', text: 'b' }))
          : stream(frame(2, { type: 'text', text: 'b' }) + frame(3, result('ab', 's1')));
      },
    });
    const seen: StreamEvent[] = [];
    const done = await followEvents(apiFor(server.fetch), 'e1', {
      signal: new AbortController().signal,
      onEvent: (ev) => seen.push(ev),
      retryDelaysMs: [0],
    });
    expect(done).toBe(true);
    expect(seen.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(server.calls[0]?.headers.get('Authorization')).toBe('Bearer tok');
    const streams = server.calls.filter((c) => c.query.get('format') !== 'json');
    expect(streams[1]?.headers.get('Last-Event-ID')).toBe('2');
  });

  it('ends when the stream closes without a result and the JSON feed says the run is done', async () => {
    const server = createFakeServer({
      'GET /api/executions/e1/events': (call) =>
        call.query.get('format') === 'json'
          ? { events: [], done: true }
          : stream(frame(1, { type: 'text', text: 'a' })),
    });
    const done = await followEvents(apiFor(server.fetch), 'e1', {
      signal: new AbortController().signal,
      onEvent: () => {},
    });
    expect(done).toBe(true);
    expect(server.calls.map((c) => c.query.get('after'))).toEqual([null, '1']);
  });

  it('falls back to the JSON long-poll when the response is not an event stream', async () => {
    const server = createFakeServer({
      'GET /api/executions/e1/events': (call) => {
        if (call.query.get('format') !== 'json') return json(200, { unexpected: true });
        const after = Number(call.query.get('after'));
        const events =
          after === 0
            ? [{ seq: 1, type: 'text', data: { type: 'text', text: 'a' }, created_at: '' }]
            : [{ seq: 2, type: 'result', data: result('a', 's1'), created_at: '' }];
        return { events, done: after !== 0 };
      },
    });
    const seen: StreamEvent[] = [];
    await followEvents(apiFor(server.fetch), 'e1', {
      signal: new AbortController().signal,
      onEvent: (e) => seen.push(e),
    });
    expect(seen.map((e) => e.type)).toEqual(['text', 'result']);
    const polls = server.calls.filter((c) => c.query.get('format') === 'json');
    expect(polls.map((c) => [c.query.get('after'), c.query.get('wait')])).toEqual([
      ['0', '20'],
      ['1', '20'],
    ]);
  });

  it('stops on a 404 instead of retrying forever', async () => {
    const server = createFakeServer({});
    await expect(
      followEvents(apiFor(server.fetch), 'nope', { signal: new AbortController().signal, onEvent: () => {} }),
    ).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('parses a stream split anywhere (mid-line, between CR and LF) and skips heartbeats', async () => {
    const text =
      `: heartbeat\r\n\r\n${frame(1, { type: 'text', text: 'a\nb' })}${frame(2, result('ab', 's1'))}`.replace(
        /\n\n/g,
        '\r\n\r\n',
      );
    const chunks = text.match(/[\s\S]{1,7}/g) ?? [];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const server = createFakeServer({
      'GET /api/executions/e1/events': () =>
        new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    });
    const seen: StreamEvent[] = [];
    const done = await followEvents(apiFor(server.fetch), 'e1', {
      signal: new AbortController().signal,
      onEvent: (ev) => seen.push(ev),
    });
    expect(done).toBe(true);
    expect(seen.map((e) => [e.seq, e.type])).toEqual([
      [1, 'text'],
      [2, 'result'],
    ]);
    expect(seen[0]?.data).toEqual({ type: 'text', text: 'a\nb' });
  });
});
