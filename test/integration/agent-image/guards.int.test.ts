import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentServerProcess, startAgentServerProcess } from '../../helpers/agent-server';
import { type ScriptedModel, startScriptedModel } from '../../helpers/scripted-model';
import { firstEvent, post, runTurn, task } from './task-client';

let model: ScriptedModel;
let server: AgentServerProcess;

beforeAll(async () => {
  model = await startScriptedModel();
  server = await startAgentServerProcess({ modelUrl: model.url, env: { CLAUDE_CODE_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await server?.stop();
  await model?.close();
});

describe('agent server guards', () => {
  it('answers 401 unauthorized without a token', async () => {
    const response = await post(server, '/api/task', task('hello'), '');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('answers 401 unauthorized with a wrong token', async () => {
    const response = await post(server, '/api/task', task('hello'), `${server.token}x`);
    expect(response.status).toBe(401);
  });

  it('answers health without a token and reveals nothing else', async () => {
    const response = await fetch(`${server.url}/health`);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers 400 invalid_session_id for a malformed session id', async () => {
    const response = await post(server, '/api/task', task('hello', { session_id: '../etc/passwd' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_session_id' } });
  });

  it('refuses a tool that allowed_tools leaves out', async () => {
    const turn = await runTurn(server, task('run: echo leaked', { allowed_tools: ['Read'] }));
    expect(turn.result.tool_calls).toHaveLength(1);
    expect(turn.result.tool_calls[0]).toMatchObject({ name: 'Bash', is_error: true });
    expect(turn.result.tool_calls[0]?.output_preview).not.toContain('leaked');
  });

  it('answers 400 validation_error for an empty message', async () => {
    const response = await post(server, '/api/task', task(''));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'validation_error' } });
  });

  it('returns 409 when another turn is writing to the session', async () => {
    const body = task('sleep: 2');
    const running = await post(server, '/api/task', body);
    const { rest } = await firstEvent(running);
    const second = await post(
      server,
      '/api/task',
      task('hello', { session_id: body.session_id, resume: true }),
    );
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: { code: 'session_busy' } });
    const events = await rest;
    expect(events.at(-1)).toMatchObject({ type: 'result', status: 'success' });
  });

  it('runs turns on two different sessions in parallel', async () => {
    const [a, b] = await Promise.all([runTurn(server, task('sleep: 1')), runTurn(server, task('sleep: 1'))]);
    expect(a.result.status).toBe('success');
    expect(b.result.status).toBe('success');
    expect(a.result.session_id).not.toBe(b.result.session_id);
  });

  it('treats a prompt beginning with --help as text, not as a flag', async () => {
    const turn = await runTurn(server, task('--help --version please'));
    expect(turn.result.status).toBe('success');
    expect(turn.result.response).toBe('Echo (turn 1): --help --version please');
  });

  it('passes model, system prompt and max turns to the CLI without reading values as flags', async () => {
    const turn = await runTurn(
      server,
      task('hello', {
        model: 'claude-scripted-1',
        system_prompt: '--version',
        max_turns: 2,
        allowed_tools: ['Bash'],
      }),
    );
    expect(turn.events[0]).toMatchObject({ type: 'status', model: 'claude-scripted-1' });
    expect(turn.result).toMatchObject({ status: 'success', response: 'Echo (turn 1): hello' });
  });

  it('redacts a key printed by a tool before it reaches the stream', async () => {
    const key = `sk-ant-api03-${'Zq9'.repeat(12)}`;
    const response = await post(server, '/api/task', task(`run: echo ${key}`));
    const raw = await response.text();
    expect(raw).not.toContain(key);
    expect(raw).not.toContain('Zq9Zq9Zq9');
    expect(raw).toContain('***REDACTED***');
    const result = JSON.parse(raw.trimEnd().split('\n').at(-1)!);
    expect(result).toMatchObject({ type: 'result', status: 'success' });
    expect(result.tool_calls[0].output_preview).toBe('***REDACTED***');
  });

  it.each(['400', '500'])('maps a model HTTP %s error to model_error', async (status) => {
    const turn = await runTurn(server, task(`model-error: ${status}`));
    expect(turn.result).toMatchObject({ status: 'failed', error: { code: 'model_error' } });
  });

  it('reports a session as present, archived, then missing', async () => {
    const body = task('hello');
    await runTurn(server, body);
    const state = async (id: string) =>
      (
        await fetch(`${server.url}/api/sessions/${id}`, {
          headers: { authorization: `Bearer ${server.token}` },
        })
      ).json();
    expect(await state(body.session_id)).toEqual({ id: body.session_id, state: 'present' });
    const projects = join(server.home, '.claude', 'projects', server.workdir.replace(/[^A-Za-z0-9]/g, '-'));
    rmSync(join(projects, `${body.session_id}.jsonl`));
    expect(await state(body.session_id)).toEqual({ id: body.session_id, state: 'archived' });
    expect(await state(randomUUID())).toMatchObject({ state: 'missing' });
  });

  it('answers 404 when cancelling an execution that is not running', async () => {
    const response = await post(server, `/api/task/ex-${randomUUID()}/cancel`);
    expect(response.status).toBe(404);
  });
});
