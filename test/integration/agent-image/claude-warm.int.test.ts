import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWarmClaude } from '@reprise/agent-image/claude-warm';
import type { RunSpec, WarmProcess } from '@reprise/agent-image/runtime';
import type { AgentEvent } from '@reprise/functions/agent-events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A stand-in CLI speaking claude's stream-json protocol, for what the real one will not do on
 * demand: from its second message on it first prints a line left over from the previous turn,
 * before echoing the new message (the real CLI prints lifecycle lines there).
 */
const FAKE_CLI = `#!/bin/sh
n=0
while IFS= read -r line; do
  n=$((n+1))
  uuid=$(printf '%s' "$line" | sed 's/.*"uuid":"\\([^"]*\\)".*/\\1/')
  if [ $n -gt 1 ]; then
    echo '{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"text_delta","text":"LEFTOVER "}}}'
  fi
  echo '{"type":"system","subtype":"init","session_id":"s-1"}'
  echo "{\\"type\\":\\"user\\",\\"isReplay\\":true,\\"uuid\\":\\"$uuid\\",\\"message\\":{\\"role\\":\\"user\\",\\"content\\":[]}}"
  echo "{\\"type\\":\\"stream_event\\",\\"event\\":{\\"type\\":\\"content_block_delta\\",\\"delta\\":{\\"type\\":\\"text_delta\\",\\"text\\":\\"answer $n\\"}}}"
  echo "{\\"type\\":\\"result\\",\\"subtype\\":\\"success\\",\\"is_error\\":false,\\"result\\":\\"answer $n\\",\\"session_id\\":\\"s-1\\"}"
done
`;

let dir: string;
let bin: string;
const spec: RunSpec = { prompt: 'unused', sessionId: 's-1', resume: false, forkSession: false };
const start = () =>
  startWarmClaude(
    { bin, workdir: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, killGraceMs: 200 },
    spec,
  );
const ask = async (process: WarmProcess, prompt: string) => {
  const events: AgentEvent[] = [];
  const turn = await process.turn(prompt, {
    signal: new AbortController().signal,
    emit: (e) => events.push(e),
  });
  return { ...turn, text: events.map((e) => (e.type === 'text' ? e.text : '')).join('') };
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cw-'));
  bin = join(dir, 'fake-claude');
  writeFileSync(bin, FAKE_CLI);
  chmodSync(bin, 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('warm claude process (stream-json turns)', () => {
  it('gives each turn only the output after the echo of its own message', async () => {
    const cli = start();
    try {
      const first = await ask(cli, 'one');
      expect(first).toMatchObject({ delivered: true, text: 'answer 1' });
      expect(first.outcome).toMatchObject({ status: 'success', response: 'answer 1', sessionId: 's-1' });
      for (const n of [2, 3]) {
        const next = await ask(cli, `turn ${n}`);
        expect(next.text).toBe(`answer ${n}`);
        expect(next.outcome.response).toBe(`answer ${n}`);
      }
      expect(cli.turns).toBe(3);
    } finally {
      await cli.close();
    }
    expect(cli.alive).toBe(false);
  });

  it('reports a turn as undelivered when the process died before reading it', async () => {
    const cli = start();
    await ask(cli, 'one');
    process.kill(-cli.pid!, 'SIGKILL');
    await cli.exited;
    const turn = await ask(cli, 'two');
    expect(turn.delivered).toBe(false);
    expect(turn.outcome.status).toBe('failed');
  });

  it('stops the process when its turn is aborted', async () => {
    const hang = join(dir, 'hang');
    writeFileSync(hang, '#!/bin/sh\nsleep 300\n');
    chmodSync(hang, 0o755);
    const cli = startWarmClaude(
      { bin: hang, workdir: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, killGraceMs: 200 },
      spec,
    );
    const controller = new AbortController();
    const turn = cli.turn('ignored', { signal: controller.signal, emit: () => {} });
    expect(cli.alive).toBe(true);
    controller.abort('cancelled');
    expect((await turn).outcome.status).toBe('failed');
    expect(cli.alive).toBe(false);
  });
});
