import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleAgentServer } from '../../../agent-image/build';
import { type AgentServerProcess, startAgentServerProcess } from '../../helpers/agent-server';
import { type ScriptedModel, startScriptedModel } from '../../helpers/scripted-model';
import { runTurn, task } from './task-client';

let model: ScriptedModel;
let server: AgentServerProcess;

beforeAll(async () => {
  const [outfile, started] = await Promise.all([bundleAgentServer(), startScriptedModel()]);
  model = started;
  server = await startAgentServerProcess({ modelUrl: model.url, entry: outfile });
});
afterAll(async () => {
  await server?.stop();
  await model?.close();
});

describe('bundled agent server (dist/server.mjs as a real process)', () => {
  it('answers its health check', async () => {
    const response = await fetch(`${server.url}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('runs one turn through the real claude CLI', async () => {
    const turn = await runTurn(server, task('hello from the bundle'));
    expect(turn.result).toMatchObject({
      status: 'success',
      response: 'Echo (turn 1): hello from the bundle',
    });
  });

  it('exits on SIGTERM', async () => {
    await server.stop();
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });
});
