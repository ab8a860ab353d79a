import type { CliExit } from '@reprise/agent-image/cli-process';
import { buildCodexArgs } from '@reprise/agent-image/codex';
import { createCodexParser } from '@reprise/agent-image/codex-stream';
import { buildGeminiArgs } from '@reprise/agent-image/gemini';
import { createGeminiParser } from '@reprise/agent-image/gemini-stream';
import { describe, expect, it } from 'vitest';

const exit = (exitCode: number, stderrTail = ''): CliExit => ({
  exitCode,
  signal: null,
  stderrTail,
  spawnError: null,
});
const spec = { prompt: 'hi', sessionId: 'sid-1', resume: false, forkSession: false };
const lines = (...objects: unknown[]) => objects.map((o) => JSON.stringify(o));

describe('codex adapter', () => {
  it('builds exec, resume and fork turns with the prompt on stdin and values as --flag=value', () => {
    const local = { baseUrl: 'http://127.0.0.1:9/', maxRetries: 0 };
    const fresh = buildCodexArgs({ ...spec, model: '-x', systemPrompt: 'be "brief"' }, local);
    expect(fresh.slice(0, 2)).toEqual(['exec', '--json']);
    expect(fresh).toContain('model_providers.reprise.base_url="http://127.0.0.1:9/v1"');
    expect(fresh).toContain('model_providers.reprise.request_max_retries=0');
    expect(fresh).toContain('--model=-x');
    expect(fresh).toContain('developer_instructions="be \\"brief\\""');
    expect(fresh.at(-1)).toBe('-');
    expect(fresh).not.toContain('hi');
    expect(buildCodexArgs({ ...spec, resume: true }, {}).slice(-3)).toEqual(['resume', 'sid-1', '-']);
    expect(buildCodexArgs({ ...spec, resume: true, forkSession: true }, {}).slice(-3)).toEqual([
      'fork',
      'sid-1',
      '-',
    ]);
  });

  it('announces the thread id, pairs a command with its outcome and reports tokens', () => {
    const parser = createCodexParser(() => 0);
    const events = lines(
      { type: 'thread.started', thread_id: 't-1' },
      {
        type: 'item.started',
        item: { id: 'i1', type: 'command_execution', command: "/bin/bash -lc 'ls /x'" },
      },
      {
        type: 'item.completed',
        item: {
          id: 'i1',
          type: 'command_execution',
          command: "/bin/bash -lc 'ls /x'",
          aggregated_output: 'no such file',
          exit_code: 2,
          status: 'failed',
        },
      },
      { type: 'item.completed', item: { id: 'i2', type: 'agent_message', text: 'it failed' } },
      { type: 'turn.completed', usage: { input_tokens: 120, output_tokens: 5 } },
    ).flatMap((line) => parser.push(line));
    expect(events[0]).toEqual({ type: 'status', status: 'running', session_id: 't-1' });
    expect(events).toContainEqual({ type: 'tool_use', id: 'i1', name: 'shell', input: { command: 'ls /x' } });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'i1', is_error: true }),
    );
    expect(parser.finish(exit(0))).toMatchObject({
      status: 'success',
      sessionId: 't-1',
      response: 'it failed',
      contextUsed: 120,
      numTurns: 1,
      costUsd: null,
      toolCalls: [{ name: 'shell', is_error: true, output_preview: 'no such file' }],
    });
  });

  it('maps turn.failed to model_error and an unknown thread to session_not_found', () => {
    const failed = createCodexParser();
    failed.push(JSON.stringify({ type: 'turn.failed', error: { message: 'boom' } }));
    expect(failed.finish(exit(1)).error).toEqual({ code: 'model_error', message: 'boom' });
    const missing = createCodexParser().finish(
      exit(1, 'Error: thread/resume failed: no rollout found for thread id x'),
    );
    expect(missing).toMatchObject({ sessionId: null, error: { code: 'session_not_found' } });
  });
});

describe('gemini adapter', () => {
  it('names new sessions up front and resumes by id, the prompt on stdin', () => {
    expect(buildGeminiArgs(spec, 'sid-1', { baseUrl: 'http://m' })).toEqual([
      '--output-format=stream-json',
      '--approval-mode=yolo',
      '--skip-trust',
      '--prompt=',
      '--session-id=sid-1',
      '--model=gemini-2.5-flash',
    ]);
    expect(buildGeminiArgs({ ...spec, resume: true, model: 'm2' }, 'sid-2', {})).toContain('--resume=sid-2');
  });

  it('streams deltas, pairs tools by tool_id and maps a failed result', () => {
    const parser = createGeminiParser(() => 0);
    const events = lines(
      { type: 'init', session_id: 's-1' },
      { type: 'message', role: 'user', content: 'hi' },
      { type: 'tool_use', tool_name: 'run_shell_command', tool_id: 'c1', parameters: { command: 'ls /x' } },
      { type: 'tool_result', tool_id: 'c1', status: 'error', output: 'denied' },
      { type: 'message', role: 'assistant', content: 'Done ', delta: true },
      { type: 'message', role: 'assistant', content: 'now', delta: true },
      { type: 'result', status: 'success', stats: { input_tokens: 42 } },
    ).flatMap((line) => parser.push(line));
    expect(events.filter((e) => e.type === 'text').map((e) => (e.type === 'text' ? e.text : ''))).toEqual([
      'Done ',
      'now',
    ]);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'c1', is_error: true }),
    );
    expect(parser.finish(exit(0))).toMatchObject({
      status: 'success',
      sessionId: 's-1',
      response: 'Done now',
      contextUsed: 42,
    });
    const failed = createGeminiParser();
    failed.push(JSON.stringify({ type: 'result', status: 'error', error: { message: '[API Error: 400]' } }));
    expect(failed.finish(exit(1)).error).toMatchObject({ code: 'model_error' });
    expect(
      createGeminiParser().finish(exit(42, 'Error resuming session: Invalid session identifier')).error,
    ).toMatchObject({
      code: 'session_not_found',
    });
  });
});
