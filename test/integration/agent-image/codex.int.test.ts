import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeRuntime } from './runtime-suite';
import { runTurn, task } from './task-client';

const codex = describeRuntime({
  runtime: 'codex',
  env: (modelUrl) => ({ OPENAI_BASE_URL: modelUrl }),
  shellTool: 'shell',
});

describe('codex sessions on disk', () => {
  it('keeps each thread as a dated rollout under CODEX_HOME, named by the thread id it reported', async () => {
    const turn = await runTurn(codex.server(), task('hello'));
    const id = turn.result.session_id!;
    const file = codex.transcriptOf(id);
    expect(existsSync(file)).toBe(true);
    expect(relative(codex.server().home, file)).toMatch(
      new RegExp(`^\\.codex/sessions/\\d{4}/\\d{2}/\\d{2}/rollout-.+-${id}\\.jsonl$`),
    );
  });
});
