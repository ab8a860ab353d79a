import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentsToMessages } from '../../../infra/local/src/scripted-model/gemini-wire';
import { responsesToMessages } from '../../../infra/local/src/scripted-model/openai-wire';
import { decide } from '../../../infra/local/src/scripted-model/script';
import { type ScriptedModel, startScriptedModel } from '../../helpers/scripted-model';
import { parseSse } from '../../helpers/sse';

const sseData = (body: string) => parseSse(body).map((e) => e.data);

let model: ScriptedModel;
beforeAll(async () => {
  model = await startScriptedModel();
});
afterAll(() => model.close());

const post = (path: string, body: unknown) =>
  fetch(`${model.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const codexHistory = [
  { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are codex' }] },
  {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/w</cwd>\n</environment_context>' }],
  },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run: ls /nope' }] },
  { type: 'function_call', call_id: 'c1', name: 'exec_command', arguments: '{"cmd":"ls /nope"}' },
  {
    type: 'function_call_output',
    call_id: 'c1',
    output:
      'Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 2\nOutput:\nls: cannot access /nope',
  },
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '`ls /nope` failed' }] },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'what went wrong' }] },
];

const geminiHistory = [
  {
    role: 'user',
    parts: [
      { text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' },
      { text: 'run: ls /nope' },
    ],
  },
  {
    role: 'model',
    parts: [{ functionCall: { id: 'g1', name: 'run_shell_command', args: { command: 'ls /nope' } } }],
  },
  {
    role: 'user',
    parts: [
      // A resumed gemini-cli session repeats the answer; it must count once.
      ...[1, 2].map(() => ({
        functionResponse: {
          id: 'g1',
          name: 'run_shell_command',
          response: {
            output:
              '<untrusted_context>\nOutput: ls: cannot access /nope\nExit Code: 2\n</untrusted_context>',
          },
        },
      })),
    ],
  },
  { role: 'model', parts: [{ text: '`ls /nope` failed' }] },
  { role: 'user', parts: [{ text: 'what went wrong' }] },
];

describe('scripted model: OpenAI Responses wire (codex)', () => {
  it('reads the conversation back: harness context dropped, exit code and output kept', () => {
    const reply = decide(responsesToMessages(codexHistory));
    expect(reply).toMatchObject({ kind: 'text' });
    const text = reply.kind === 'text' ? reply.text : '';
    expect(text).toBe(
      'Recap of the conversation so far:\n1. You asked: run: ls /nope\n2. `ls /nope` failed: ls: cannot access /nope',
    );
  });

  it('streams a `run:` prompt as an exec_command function call and completes with usage', async () => {
    const response = await post('/v1/responses', {
      model: 'scripted',
      stream: true,
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run: echo hi' }] }],
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = sseData(await response.text());
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[2].item).toMatchObject({ type: 'function_call', name: 'exec_command' });
    expect(JSON.parse(events[2].item.arguments)).toEqual({ cmd: 'echo hi' });
    expect(events[3].response.usage.input_tokens).toBeGreaterThan(0);
  });

  it('streams text as several deltas and answers a scripted error with an OpenAI error body', async () => {
    const input = [
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'hello there, scripted model' }],
      },
    ];
    const events = sseData(await (await post('/v1/responses', { stream: true, input })).text());
    const deltas = events.filter((e) => e.type === 'response.output_text.delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => e.delta).join('')).toBe('Echo (turn 1): hello there, scripted model');
    const failed = await post('/v1/responses', {
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'model-error: 503' }] }],
    });
    expect(failed.status).toBe(503);
    expect(await failed.json()).toMatchObject({ error: { message: 'Scripted model error 503' } });
  });
});

describe('scripted model: Gemini wire (gemini-cli)', () => {
  it('reads the conversation back: session context dropped, a repeated answer counted once', () => {
    const reply = decide(contentsToMessages(geminiHistory));
    const text = reply.kind === 'text' ? reply.text : '';
    expect(text).toBe(
      'Recap of the conversation so far:\n1. You asked: run: ls /nope\n2. `ls /nope` failed: ls: cannot access /nope',
    );
  });

  it('streams a `run:` prompt as a run_shell_command functionCall', async () => {
    const response = await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', {
      contents: [{ role: 'user', parts: [{ text: 'run: echo hi' }] }],
    });
    const chunks = sseData(await response.text());
    expect(chunks).toHaveLength(1);
    expect(chunks[0].candidates[0]).toMatchObject({
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'echo hi' } } }],
      },
      finishReason: 'STOP',
    });
  });

  it('streams text in chunks (usage on the last) and answers errors with a Google error body', async () => {
    const url = '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse';
    const chunks = sseData(
      await (
        await post(url, { contents: [{ role: 'user', parts: [{ text: 'hi gemini, how are you' }] }] })
      ).text(),
    );
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.map((c) => c.candidates[0].content.parts[0].text).join('')).toBe(
      'Echo (turn 1): hi gemini, how are you',
    );
    expect(chunks.at(-1).usageMetadata.promptTokenCount).toBeGreaterThan(0);
    const failed = await post(url, { contents: [{ role: 'user', parts: [{ text: 'model-error: 429' }] }] });
    expect(failed.status).toBe(429);
    expect(await failed.json()).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } });
  });
});
