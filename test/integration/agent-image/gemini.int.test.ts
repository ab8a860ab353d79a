import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeRuntime } from './runtime-suite';
import { runTurn, task } from './task-client';

const gemini = describeRuntime({
  runtime: 'gemini',
  env: (modelUrl) => ({ GOOGLE_GEMINI_BASE_URL: modelUrl }),
  shellTool: 'run_shell_command',
});

describe('gemini sessions on disk', () => {
  it('takes the session id the platform chose and keeps it in a chats file of the project', async () => {
    const body = task('hello');
    const turn = await runTurn(gemini.server(), body);
    // New gemini sessions get the platform's id up front (--session-id), unlike codex threads.
    expect(turn.result.session_id).toBe(body.session_id);
    const file = gemini.transcriptOf(body.session_id);
    expect(existsSync(file)).toBe(true);
    expect(relative(gemini.server().home, file)).toMatch(/^\.gemini\/tmp\/[^/]+\/chats\/session-[^/]+$/);
  });
});
