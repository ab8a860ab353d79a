import { randomUUID } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxAvailable } from '@reprise/agent-image/sandbox';
import { describe, expect, it } from 'vitest';
import {
  type AgentServerProcess,
  agentServerPerFile,
  startAgentServerProcess,
} from '../../helpers/agent-server';
import type { ScriptedModel } from '../../helpers/scripted-model';
import { firstEvent, post, processesMentioning, runTurn, task, waitFor } from './task-client';

let model: ScriptedModel;
let server: AgentServerProcess;

agentServerPerFile((s, m) => {
  server = s;
  model = m;
});

/** The sleep's duration is unique per test, so `ps` finds exactly that tool process. */
const uniqueSeconds = () => 400 + Math.floor(Math.random() * 500);

describe('the CLI runs confined (bubblewrap)', () => {
  it('is available on this machine (the test command installs bubblewrap)', () => {
    expect(sandboxAvailable()).toBe(true);
  });

  it('shows the tool a root without the real machine in it, but its own workdir', async () => {
    const marker = `marker-${randomUUID()}`;
    writeFileSync(join(server.workdir, marker), 'x');
    const hostRoot = readdirSync('/');
    const turn = await runTurn(server, task('run: ls -1 /; echo ---; ls -1 .'));
    expect(turn.result.status).toBe('success');
    const output = String(turn.result.tool_calls[0]?.output_preview ?? '');
    const [root = '', cwd = ''] = output.split('---');
    const seen = root
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    // Things every host root here has and the sandbox never shows.
    for (const hidden of ['root', 'var', 'home', 'opt', 'srv'].filter((d) => hostRoot.includes(d))) {
      expect(seen).not.toContain(hidden);
    }
    expect(seen).toContain('usr');
    expect(cwd).toContain(marker);
  });

  it('reaches the scripted model on loopback from inside (the turn above answered) and the host cannot be written', async () => {
    const outside = join(server.archiveDir, `write-${randomUUID()}`);
    const turn = await runTurn(server, task(`run: touch ${outside} 2>&1; echo rc=$?`));
    expect(turn.result.status).toBe('success');
    expect(readdirSync(server.archiveDir)).not.toContain(outside.split('/').at(-1));
  });

  it('kills a tool that moved to another directory and its own session when the agent server is killed', async () => {
    const own = await startAgentServerProcess({ modelUrl: model.url });
    const seconds = uniqueSeconds();
    try {
      const body = task(`run: cd /tmp && setsid sleep ${seconds}`);
      const { rest } = await firstEvent(await post(own, '/api/task', body));
      await waitFor(() => processesMentioning(`sleep ${seconds}`).length > 0);
      process.kill(own.pid, 'SIGKILL');
      await rest.catch(() => []);
      await waitFor(() => processesMentioning(`sleep ${seconds}`).length === 0);
      expect(processesMentioning(`sleep ${seconds}`)).toEqual([]);
      expect(processesMentioning(body.session_id)).toEqual([]);
    } finally {
      await own.stop();
    }
  });
});
