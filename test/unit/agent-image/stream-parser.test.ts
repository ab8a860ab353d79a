import { readFileSync } from 'node:fs';
import type { CliExit } from '@reprise/agent-image/cli-process';
import { createStreamParser, PREVIEW_CHARS } from '@reprise/agent-image/stream-parser';
import type { AgentEvent } from '@reprise/functions/agent-events';
import { describe, expect, it } from 'vitest';

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}.jsonl`, import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean);
const exit = (exitCode = 0, stderrTail = ''): CliExit => ({
  exitCode,
  signal: null,
  stderrTail,
  spawnError: null,
});

const feed = (lines: string[], now?: () => number) => {
  const parser = createStreamParser(now);
  const events: AgentEvent[] = lines.flatMap((line) => parser.push(line));
  return { parser, events };
};

describe('claude stream parser (recorded CLI output)', () => {
  it('turns a tool round trip into tool_use, tool_result and text events and a success outcome', () => {
    let clock = 1_000;
    const { parser, events } = feed(fixture('tool-failure'), () => (clock += 5));
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['tool_use', 'tool_result', 'text']));
    expect(events.find((e) => e.type === 'tool_use')).toMatchObject({
      name: 'Bash',
      input: { command: 'ls /nonexistent' },
    });
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ is_error: true, output_preview: expect.stringContaining('No such file') });
    expect(result && 'duration_ms' in result ? result.duration_ms : -1).toBeGreaterThan(0);
    const text = events.map((e) => (e.type === 'text' ? e.text : '')).join('');
    const outcome = parser.finish(exit());
    expect(outcome).toMatchObject({
      status: 'success',
      error: null,
      sessionId: '44444444-1111-4111-8111-111111111111',
      numTurns: 2,
      contextMax: 1_000_000,
    });
    expect(outcome.response).toBe(text);
    expect(outcome.costUsd).toBeGreaterThan(0);
    expect(outcome.contextUsed).toBeGreaterThan(4_000);
    expect(outcome.toolCalls).toEqual([expect.objectContaining({ name: 'Bash', is_error: true })]);
  });

  it('maps an API error (subtype success but is_error) to model_error', () => {
    const { parser } = feed(fixture('model-error'));
    expect(parser.finish(exit(1))).toMatchObject({ status: 'failed', error: { code: 'model_error' } });
  });

  it('maps "No conversation found" to session_not_found, never success', () => {
    const { parser } = feed(fixture('no-conversation'));
    expect(parser.finish(exit(1))).toMatchObject({ status: 'failed', error: { code: 'session_not_found' } });
  });

  it('reports the new session id of a fork', () => {
    const { parser } = feed(fixture('fork'));
    const outcome = parser.finish(exit());
    expect(outcome.status).toBe('success');
    expect(outcome.sessionId).not.toBe('44444444-1111-4111-8111-111111111111');
    expect(outcome.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('fails with cli_failed and the stderr tail when no result arrives', () => {
    const { parser } = feed(['not json', '{"type":"system","subtype":"init","session_id":"s1"}']);
    const outcome = parser.finish(exit(2, 'boom: bad flag\n'));
    expect(outcome).toMatchObject({ status: 'failed', sessionId: 's1', error: { code: 'cli_failed' } });
    expect(outcome.error?.message).toContain('boom: bad flag');
  });

  it('treats an error subtype as a failure even without is_error', () => {
    const { parser } = feed([
      '{"type":"result","subtype":"error_max_turns","session_id":"s1","num_turns":3}',
    ]);
    expect(parser.finish(exit(0))).toMatchObject({
      status: 'failed',
      numTurns: 3,
      error: { code: 'cli_failed' },
    });
  });

  it('sums input and cache tokens of the last API call for context used', () => {
    const usage = { input_tokens: 10, cache_creation_input_tokens: 20, cache_read_input_tokens: 30 };
    const { parser } = feed([
      JSON.stringify({
        type: 'stream_event',
        event: { type: 'message_start', message: { usage: { input_tokens: 1 } } },
      }),
      JSON.stringify({ type: 'stream_event', event: { type: 'message_start', message: { usage } } }),
      JSON.stringify({
        type: 'result',
        subtype: 'success',
        is_error: false,
        result: 'ok',
        modelUsage: { a: { contextWindow: 200_000 } },
      }),
    ]);
    expect(parser.finish(exit())).toMatchObject({ contextUsed: 60, contextMax: 200_000, response: 'ok' });
  });

  it('caps a tool output preview at 2,000 characters', () => {
    const { events } = feed([
      JSON.stringify({
        type: 'assistant',
        message: { content: [{ type: 'tool_use', id: 't', name: 'Bash', input: {} }] },
      }),
      JSON.stringify({
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: 't', content: 'x'.repeat(5_000) }] },
      }),
    ]);
    const result = events.find((e) => e.type === 'tool_result');
    expect(result && 'output_preview' in result ? result.output_preview.length : 0).toBe(PREVIEW_CHARS);
  });

  it('ignores text streamed by sub-agents', () => {
    const delta = { type: 'content_block_delta', delta: { type: 'text_delta', text: 'inner' } };
    const { events } = feed([
      JSON.stringify({ type: 'stream_event', parent_tool_use_id: 'toolu_1', event: delta }),
    ]);
    expect(events).toEqual([]);
  });
});
