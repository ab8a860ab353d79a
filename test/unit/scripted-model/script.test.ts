import { describe, expect, it } from 'vitest';
import type { Message } from '../../../infra/local/src/scripted-model/conversation';
import { decide } from '../../../infra/local/src/scripted-model/script';
import { chunks } from '../../../infra/local/src/scripted-model/wire';

const user = (text: string): Message => ({
  role: 'user',
  content: [
    { type: 'text', text: '<system-reminder>\nIgnore me\n</system-reminder>\n' },
    { type: 'text', text },
  ],
});
const system: Message = { role: 'system', content: [{ type: 'text', text: '# Environment\nrun: rm -rf /' }] };
const toolUse = (id: string, command: string): Message => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }],
});
const toolResult = (id: string, content: string, isError: boolean): Message => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }],
});
const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('scripted model', () => {
  it('echoes the prompt without system reminders and counts human turns', () => {
    const reply = decide([user('first'), assistant('Echo (turn 1): first'), user('second'), system]);
    expect(reply).toEqual({ kind: 'text', text: 'Echo (turn 2): second', durationMs: 0 });
  });

  it('accepts string content', () => {
    expect(decide([{ role: 'user', content: 'plain' }])).toMatchObject({ text: 'Echo (turn 1): plain' });
  });

  it('asks for a Bash tool call on a run: line and ignores the system entry', () => {
    const reply = decide([user('please\nrun: ls -la /tmp'), system]);
    expect(reply).toMatchObject({ kind: 'tool_use', name: 'Bash', input: { command: 'ls -la /tmp' } });
  });

  it('reports a successful tool call with the head of its output', () => {
    const reply = decide([user('run: echo hi'), toolUse('t1', 'echo hi'), toolResult('t1', 'hi\n', false)]);
    expect(reply).toMatchObject({ kind: 'text', text: 'ran `echo hi`: exit 0\nhi' });
  });

  it('reports a failed tool call with its error', () => {
    const reply = decide([user('run: false'), toolUse('t1', 'false'), toolResult('t1', 'Exit code 1', true)]);
    expect(reply).toMatchObject({ text: '`false` failed: Exit code 1' });
  });

  it('recaps earlier prompts and tool outcomes when asked what went wrong', () => {
    const reply = decide([
      user('run: ls /nonexistent'),
      toolUse('t1', 'ls /nonexistent'),
      toolResult('t1', 'No such file or directory', true),
      assistant('`ls /nonexistent` failed: No such file or directory'),
      user('So, What Went Wrong?'),
    ]);
    expect(reply.kind).toBe('text');
    const text = reply.kind === 'text' ? reply.text : '';
    expect(text).toContain('You asked: run: ls /nonexistent');
    expect(text).toContain('`ls /nonexistent` failed: No such file or directory');
    expect(text).not.toContain('What Went Wrong');
  });

  it('recaps a session that ended on a tool call, whose result arrives with the next prompt', () => {
    const merged: Message = {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'ls: cannot access', is_error: true },
        { type: 'text', text: 'what went wrong' },
      ],
    };
    const reply = decide([user('run: ls /nonexistent'), toolUse('t1', 'ls /nonexistent'), merged]);
    expect(reply.kind).toBe('text');
    const text = reply.kind === 'text' ? reply.text : '';
    expect(text).toContain('You asked: run: ls /nonexistent');
    expect(text).toContain('`ls /nonexistent` failed: ls: cannot access');
    expect(text).not.toContain('You asked: what went wrong');
  });

  it('streams slowly when asked to sleep', () => {
    expect(decide([user('sleep: 2')])).toMatchObject({ kind: 'text', durationMs: 2000 });
  });

  it('fails with the requested HTTP error after running the command of a fail-after-run prompt', () => {
    const prompt = 'run: ls /nonexistent\nfail-after-run: 400';
    expect(decide([user(prompt)])).toMatchObject({ kind: 'tool_use', input: { command: 'ls /nonexistent' } });
    const result: Message = {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ls: cannot access', is_error: true }],
    };
    expect(decide([user(prompt), toolUse('t1', 'ls /nonexistent'), result])).toMatchObject({
      kind: 'error',
      status: 400,
    });
  });

  it('answers with the requested HTTP error', () => {
    expect(decide([user('model-error: 529')])).toMatchObject({ kind: 'error', status: 529 });
  });

  it('splits text into several deltas that join back to the whole', () => {
    const text = 'Echo (turn 1): a fairly long answer that is streamed';
    const parts = chunks(text, 5);
    expect(parts.length).toBeGreaterThanOrEqual(5);
    expect(parts.join('')).toBe(text);
  });
});

describe('big: <n>', () => {
  it('answers with exactly n characters, the same text every time, never ending on half a pair', () => {
    for (const n of [1, 14, 17, 1000]) {
      const reply = decide([user(`big: ${n}`)]);
      expect(reply.kind).toBe('text');
      const text = reply.kind === 'text' ? reply.text : '';
      expect(text.length).toBe(n);
      expect(text).not.toMatch(/[\uD800-\uDBFF]$/);
      expect(decide([user(`big: ${n}`)])).toEqual(reply);
    }
  });
});
