import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createCodexRuntime } from '@reprise/agent-image/codex';
import { createGeminiRuntime } from '@reprise/agent-image/gemini';
import { describe, expect, it } from 'vitest';
import { type AgentServerProcess, agentServerPerFile } from '../../helpers/agent-server';
import { processesIn } from '../../helpers/process-tree';
import { firstEvent, post, runTurn, task, waitFor } from './task-client';

export interface RuntimeUnderTest {
  runtime: 'codex' | 'gemini';
  /** The agent-server env that points this CLI at the scripted model. */
  env: (modelUrl: string) => Record<string, string>;
  /** The name the stream gives the shell tool. */
  shellTool: string;
}

/**
 * One contract for every non-claude runtime, run against its real CLI and the scripted model:
 * the Continue-as-Chat guarantees of issue 12. Returns the running server for the runtime's own checks.
 */
export const describeRuntime = ({ runtime, env, shellTool }: RuntimeUnderTest) => {
  let server: AgentServerProcess;
  const transcriptOf = (id: string): string => {
    const options = { bin: 'unused', home: server.home, workdir: server.workdir, killGraceMs: 0 };
    const adapter = runtime === 'codex' ? createCodexRuntime(options) : createGeminiRuntime(options);
    return adapter.transcriptPath(id);
  };
  const archived = (id: string) => join(server.archiveDir, `${id}.jsonl`);

  agentServerPerFile(
    (s) => {
      server = s;
    },
    (modelUrl) => ({ AGENT_RUNTIME: runtime, CLAUDE_CODE_MAX_RETRIES: '0', ...env(modelUrl) }),
  );

  describe(`${runtime} agent server (real ${runtime} CLI, scripted model)`, { timeout: 120_000 }, () => {
    let first: string;
    let chat: string;

    it('runs a failing command and reports its session id in a status event before the result', async () => {
      const turn = await runTurn(server, task('run: ls /nonexistent-dir'));
      first = turn.result.session_id!;
      expect(turn.result).toMatchObject({ status: 'success', error: null });
      expect(first).toMatch(/^[0-9a-f-]{36}$/);
      const statuses = turn.events.filter((e) => e.type === 'status');
      expect(statuses.map((e) => (e.type === 'status' ? e.session_id : null))).toContain(first);
      expect(turn.result.tool_calls).toEqual([
        expect.objectContaining({
          name: shellTool,
          input: expect.objectContaining({ command: 'ls /nonexistent-dir' }),
        }),
      ]);
      expect(turn.events.map((e) => e.type)).toEqual(
        expect.arrayContaining(['tool_use', 'tool_result', 'text']),
      );
      expect(turn.text).toContain('`ls /nonexistent-dir` failed');
      expect(turn.result.context_used).toBeGreaterThan(0);
      const file = transcriptOf(first);
      expect(readFileSync(archived(first), 'utf8')).toBe(readFileSync(file, 'utf8'));
    });

    it('continues as a chat: "what went wrong" names the failing command; the original stays byte-identical', async () => {
      const before = readFileSync(transcriptOf(first));
      const turn = await runTurn(
        server,
        task('what went wrong?', { session_id: first, resume: true, fork_session: true }),
      );
      chat = turn.result.session_id!;
      expect(turn.result.status).toBe('success');
      expect(chat).toMatch(/^[0-9a-f-]{36}$/);
      expect(chat).not.toBe(first);
      expect(turn.events.filter((e) => e.type === 'status').at(-1)).toMatchObject({ session_id: chat });
      expect(turn.result.response).toContain('You asked: run: ls /nonexistent-dir');
      expect(turn.result.response).toContain('`ls /nonexistent-dir` failed');
      expect(readFileSync(transcriptOf(first)).equals(before)).toBe(true);
      expect(existsSync(archived(chat))).toBe(true);
    });

    it('a third turn on the chat recalls the first and the second', async () => {
      const turn = await runTurn(server, task('recap', { session_id: chat, resume: true }));
      expect(turn.result).toMatchObject({ status: 'success', session_id: chat });
      expect(turn.result.response).toContain('You asked: run: ls /nonexistent-dir');
      expect(turn.result.response).toContain('You asked: what went wrong?');
    });

    it('restores a deleted transcript from the archive and resumes it', async () => {
      rmSync(transcriptOf(chat));
      const turn = await runTurn(server, task('what happened', { session_id: chat, resume: true }));
      expect(turn.events).toContainEqual(
        expect.objectContaining({ type: 'error', code: 'transcript_restored' }),
      );
      expect(turn.result.status).toBe('success');
      expect(turn.result.response).toContain('You asked: recap');
    });

    it('repairs a torn last line and resumes', async () => {
      appendFileSync(transcriptOf(chat), '{"type":"torn","payl');
      const turn = await runTurn(server, task('recap again', { session_id: chat, resume: true }));
      expect(turn.events).toContainEqual(
        expect.objectContaining({ type: 'error', code: 'transcript_repaired' }),
      );
      expect(turn.result.status).toBe('success');
      expect(turn.result.response).toContain('ls /nonexistent-dir');
    });

    it('answers session_expired when the transcript and its archive are both gone', async () => {
      rmSync(transcriptOf(chat));
      rmSync(archived(chat));
      const turn = await runTurn(server, task('hello again', { session_id: chat, resume: true }));
      expect(turn.result).toMatchObject({ status: 'failed', error: { code: 'session_expired' } });
      expect(turn.events.some((e) => e.type === 'text' || e.type === 'tool_use')).toBe(false);
    });

    it('answers session_not_found for a session id it never saw', async () => {
      const turn = await runTurn(server, task('hello', { session_id: randomUUID(), resume: true }));
      expect(turn.result).toMatchObject({ status: 'failed', error: { code: 'session_not_found' } });
    });

    it('redacts a key printed by a tool in the events and the result', async () => {
      const key = `sk-ant-api03-${'Zq9'.repeat(12)}`;
      const response = await post(server, '/api/task', task(`run: echo ${key}`));
      const raw = await response.text();
      expect(raw).not.toContain('Zq9Zq9Zq9');
      expect(raw).toContain('***REDACTED***');
      const result = JSON.parse(raw.trimEnd().split('\n').at(-1)!);
      expect(result).toMatchObject({ type: 'result', status: 'success' });
      expect(result.tool_calls[0].output_preview).toContain('***REDACTED***');
    });

    it('refuses options the CLI cannot honour with 400 validation_error', async () => {
      const response = await post(server, '/api/task', task('hello', { max_turns: 3 }));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'validation_error' } });
    });

    it('cancels a running turn and leaves no process behind', async () => {
      const body = task('sleep: 30');
      const { rest } = await firstEvent(await post(server, '/api/task', body));
      await waitFor(() => processesIn(server.workdir).length > 0);
      expect((await post(server, `/api/task/${body.execution_id}/cancel`)).status).toBe(202);
      const events = await rest;
      expect(events.at(-1)).toMatchObject({
        type: 'result',
        status: 'cancelled',
        error: { code: 'cancelled' },
      });
      expect(processesIn(server.workdir)).toEqual([]);
    });
  });
  // What each runtime's own file checks beyond the shared contract.
  return { server: () => server, transcriptOf };
};
