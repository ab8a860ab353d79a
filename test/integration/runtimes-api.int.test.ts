import { describe, expect, it } from 'vitest';
import { type Client, stackPerFile } from '../helpers/local-stack';

let bob: Client;
stackPerFile((_, b) => {
  bob = b;
});

describe('codex and gemini agents through the platform API (real CLIs, scripted model)', {
  timeout: 180_000,
}, () => {
  it('lists the seeded codex and gemini agents with their runtime and creates one with a runtime', async () => {
    const agents = (await bob.call('GET', '/api/agents')).body.items as { name: string; runtime: string }[];
    expect(agents).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'demo', runtime: 'claude' }),
        expect.objectContaining({ name: 'codex', runtime: 'codex' }),
        expect.objectContaining({ name: 'gemini', runtime: 'gemini' }),
      ]),
    );
    const created = await bob.call('POST', '/api/agents', { name: 'cx-made', runtime: 'codex' });
    expect(created.status).toBe(201);
    expect(created.body.runtime).toBe('codex');
    expect((await bob.call('POST', '/api/agents', { name: 'bad-rt', runtime: 'cobol' })).status).toBe(400);
  });

  it.each([
    ['codex', { max_turns: 2 }, 'max_turns'],
    ['codex', { allowed_tools: ['Bash'] }, 'allowed_tools'],
    ['gemini', { system_prompt: 'be brief' }, 'system_prompt'],
  ])('refuses a %s task with %o: 400 validation_error naming the option', async (agent, options, path) => {
    const res = await bob.call('POST', `/api/agents/${agent}/task`, { message: 'hi', ...options });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.details).toEqual([expect.objectContaining({ path })]);
  });

  it.each(['codex', 'gemini'])(
    'continues a failed %s run as a chat with the whole context',
    async (agent) => {
      // gemini-cli takes seconds to boot: a run on a loaded machine may outlast the 25 s `wait` cap.
      const turn = async (body: Record<string, unknown>) => {
        let res = await bob.call('POST', `/api/agents/${agent}/task?wait=25`, body);
        while (['queued', 'running'].includes(res.body.status)) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          res = await bob.call('GET', `/api/executions/${res.body.id}`);
        }
        return res;
      };
      const failed = await turn({ message: 'run: ls /nonexistent\nfail-after-run: 400' });
      expect(failed.body).toMatchObject({
        status: 'failed',
        error: { code: 'model_error' },
        can_continue_as_chat: true,
      });
      expect(failed.body.claude_session_id).toMatch(/^[0-9a-f-]{36}$/);
      const chat = await turn({
        message: 'what went wrong',
        resume_session_id: failed.body.claude_session_id,
        fork_session: true,
        start_chat: true,
      });
      expect(chat.body).toMatchObject({
        status: 'success',
        forked: true,
        resumed_from_execution_id: failed.body.id,
      });
      expect(chat.body.response).toContain('`ls /nonexistent` failed');
      expect(chat.body.claude_session_id).not.toBe(failed.body.claude_session_id);
      const third = await turn({
        message: 'recap',
        resume_session_id: chat.body.claude_session_id,
        chat_session_id: chat.body.chat_session_id,
      });
      expect(third.body.response).toContain('You asked: run: ls /nonexistent');
      expect(third.body.response).toContain('You asked: what went wrong');
    },
  );
});
