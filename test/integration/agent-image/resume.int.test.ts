import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { projectDirName } from '@reprise/agent-image/claude';
import { describe, expect, it } from 'vitest';
import { type AgentServerProcess, agentServerPerFile } from '../../helpers/agent-server';
import { runTurn, task } from './task-client';

let server: AgentServerProcess;
const transcript = (id: string) =>
  join(server.home, '.claude', 'projects', projectDirName(server.workdir), `${id}.jsonl`);
const archived = (id: string) => join(server.archiveDir, `${id}.jsonl`);

agentServerPerFile((s) => {
  server = s;
});

describe('agent server resume flow (real claude CLI, scripted model)', () => {
  let first: string;

  it('writes a new run under the pre-assigned session id and streams text before the result', async () => {
    const body = task('run: ls /nonexistent');
    first = body.session_id;
    const turn = await runTurn(server, body);
    expect(turn.events[0]).toMatchObject({ type: 'status', status: 'running', session_id: first });
    expect(turn.result).toMatchObject({ status: 'success', session_id: first, error: null });
    expect(turn.result.tool_calls).toEqual([
      expect.objectContaining({ name: 'Bash', input: { command: 'ls /nonexistent' }, is_error: true }),
    ]);
    expect(turn.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['tool_use', 'tool_result', 'text']),
    );
    const texts = turn.events.filter((e) => e.type === 'text');
    expect(texts.length).toBeGreaterThan(1);
    expect(turn.events.at(-1)?.type).toBe('result');
    expect(turn.text).toContain('`ls /nonexistent` failed');
    expect(turn.result.context_used).toBeGreaterThan(0);
    expect(turn.result.context_max).toBeGreaterThan(0);
    expect(existsSync(transcript(first))).toBe(true);
    expect(readFileSync(archived(first), 'utf8')).toBe(readFileSync(transcript(first), 'utf8'));
  });

  it('streams text deltas in earlier reads than the result', async () => {
    const turn = await runTurn(server, task('sleep: 1'));
    const firstText = turn.received.find((r) => r.event.type === 'text');
    const result = turn.received.find((r) => r.event.type === 'result');
    expect(firstText).toBeDefined();
    expect(firstText!.read).toBeLessThan(result!.read);
  });

  it('resumes with the full context: the recap names the first prompt and its failing command', async () => {
    const turn = await runTurn(server, task('what went wrong?', { session_id: first, resume: true }));
    expect(turn.result).toMatchObject({ status: 'success', session_id: first });
    expect(turn.result.response).toContain('You asked: run: ls /nonexistent');
    expect(turn.result.response).toContain('`ls /nonexistent` failed');
  });

  it('forks into a new session id and leaves the original transcript byte-identical', async () => {
    const before = readFileSync(transcript(first));
    const turn = await runTurn(
      server,
      task('hello fork', { session_id: first, resume: true, fork_session: true }),
    );
    expect(turn.events[0]).toMatchObject({ type: 'status', session_id: null });
    expect(turn.result.status).toBe('success');
    expect(turn.result.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(turn.result.session_id).not.toBe(first);
    expect(readFileSync(transcript(first)).equals(before)).toBe(true);
    expect(existsSync(archived(turn.result.session_id!))).toBe(true);
  });

  it('runs two forks of the same session at once, each into its own new session', async () => {
    const fork = (message: string) =>
      runTurn(server, task(message, { session_id: first, resume: true, fork_session: true }));
    const [a, b] = await Promise.all([fork('fork a'), fork('fork b')]);
    expect([a.result.status, b.result.status]).toEqual(['success', 'success']);
    expect(new Set([first, a.result.session_id, b.result.session_id]).size).toBe(3);
  });

  it('answers session_not_found for a session id it never saw', async () => {
    const turn = await runTurn(server, task('hello', { session_id: randomUUID(), resume: true }));
    expect(turn.result).toMatchObject({ status: 'failed', error: { code: 'session_not_found' } });
  });

  it('restores a deleted transcript from the archive and resumes it', async () => {
    rmSync(transcript(first));
    const turn = await runTurn(server, task('recap please', { session_id: first, resume: true }));
    expect(turn.events).toContainEqual(
      expect.objectContaining({ type: 'error', code: 'transcript_restored' }),
    );
    expect(turn.result.status).toBe('success');
    expect(turn.result.response).toContain('ls /nonexistent');
    expect(existsSync(transcript(first))).toBe(true);
  });

  it('repairs a torn last line and resumes', async () => {
    appendFileSync(transcript(first), '{"type":"user","message":{"role":"us');
    const turn = await runTurn(server, task('what happened', { session_id: first, resume: true }));
    expect(turn.events).toContainEqual(
      expect.objectContaining({ type: 'error', code: 'transcript_repaired' }),
    );
    expect(turn.result.status).toBe('success');
    expect(turn.result.response).toContain('ls /nonexistent');
    const lines = readFileSync(transcript(first), 'utf8').trimEnd().split('\n');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  it('answers session_expired without starting the CLI when transcript and archive are both gone', async () => {
    rmSync(transcript(first));
    rmSync(archived(first));
    const turn = await runTurn(server, task('hello again', { session_id: first, resume: true }));
    expect(turn.result).toMatchObject({
      status: 'failed',
      error: { code: 'session_expired' },
      num_turns: null,
    });
    expect(turn.events.some((e) => e.type === 'text' || e.type === 'tool_use')).toBe(false);
  });
});
