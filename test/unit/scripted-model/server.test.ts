import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedModel, startScriptedModel } from '../../helpers/scripted-model';
import { parseSse } from '../../helpers/sse';

const sseData = (body: string) => parseSse(body).map((e) => e.data);

let model: ScriptedModel;
beforeAll(async () => {
  model = await startScriptedModel();
});
afterAll(() => model.close());

const ask = (text: string, stream: boolean, path = '/v1/messages?beta=true') =>
  fetch(`${model.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'claude-test',
      stream,
      thinking: { type: 'enabled' },
      tools: [{ name: 'Bash' }],
      messages: [{ role: 'user', content: [{ type: 'text', text }] }],
    }),
  });

describe('scripted model over HTTP', () => {
  it('streams an SSE message with several text deltas and usage', async () => {
    const response = await ask('a fairly long prompt that should be echoed back', true);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = sseData(await response.text());
    expect(events.map((e) => e.type).filter((t, i, all) => all.indexOf(t) === i)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const deltas = events.filter((e) => e.type === 'content_block_delta');
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.map((e) => e.delta.text).join('')).toBe(
      'Echo (turn 1): a fairly long prompt that should be echoed back',
    );
    expect(events[0].message.usage.input_tokens).toBeGreaterThan(0);
    expect(events.find((e) => e.type === 'message_delta').delta.stop_reason).toBe('end_turn');
  });

  it('streams a Bash tool_use as input_json_delta', async () => {
    const events = sseData(await (await ask('run: echo hi', true)).text());
    expect(events[1].content_block).toMatchObject({ type: 'tool_use', name: 'Bash' });
    const json = events
      .filter((e) => e.type === 'content_block_delta')
      .map((e) => e.delta.partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ command: 'echo hi' });
    expect(events.find((e) => e.type === 'message_delta').delta.stop_reason).toBe('tool_use');
  });

  it('answers plain JSON when stream is false', async () => {
    const body = await (await ask('hi', false)).json();
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Echo (turn 1): hi' }],
    });
  });

  it('answers the requested status with an Anthropic-style error body', async () => {
    const response = await ask('model-error: 429', true);
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Scripted model error 429' },
    });
  });

  it('counts tokens and answers 404 for unknown paths', async () => {
    expect(await (await ask('abcd', false, '/v1/messages/count_tokens')).json()).toMatchObject({
      input_tokens: expect.any(Number),
    });
    expect((await ask('x', false, '/v1/other')).status).toBe(404);
  });
});
