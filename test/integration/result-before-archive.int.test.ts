import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentServer } from '@reprise/agent-image/app';
import { createDirArchive } from '@reprise/agent-image/archive/dir';
import type { Runtime } from '@reprise/agent-image/runtime';
import { createFileLedger } from '@reprise/agent-image/session-ledger';
import type { CoreDeps } from '@reprise/functions/core/deps';
import { inProcessEventSignal } from '@reprise/functions/core/event-signals';
import { systemClock } from '@reprise/functions/core/ports';
import { submitTask } from '@reprise/functions/core/tasks';
import { waitForTerminal } from '@reprise/functions/core/wait';
import { createStores } from '@reprise/functions/data/create-stores';
import { dirPayloadStore } from '@reprise/functions/data/payloads/dir';
import { AgentClient } from '@reprise/functions/fleet/agent-client';
import type { AgentFleet } from '@reprise/functions/fleet/agent-fleet';
import { silentLogger } from '@reprise/functions/lib/log';
import { inProcessDispatcher } from '@reprise/functions/runner/dispatchers';
import { runExecution } from '@reprise/functions/runner/run-execution';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bob, newAgent, successOutcome } from '../helpers/fixtures';
import { createTestDb, type TestDb } from '../helpers/test-db';

/**
 * The runner and the agent server together, in one process: DynamoDB Local, the agent server's
 * app with a runtime that writes a transcript, and an archive this test holds back (in AWS it is
 * an S3 upload of the whole transcript).
 */
const home = mkdtempSync(join(tmpdir(), 'rp-archive-after-'));
const archiveDir = join(home, 'archive');
const order: string[] = [];
let letArchiveFinish = () => {};
let db: TestDb;
let deps: CoreDeps;
let drain: () => Promise<void>;

const runtime: Runtime = {
  name: 'claude',
  transcriptPath: (id) => join(home, 'projects', `${id}.jsonl`),
  run: async (spec) => {
    order.push(`run ${spec.prompt}`);
    mkdirSync(join(home, 'projects'), { recursive: true });
    writeFileSync(runtime.transcriptPath(spec.sessionId), `{"prompt":${JSON.stringify(spec.prompt)}}\n`);
    return successOutcome(spec.sessionId, `answered ${spec.prompt}`);
  },
};

beforeAll(async () => {
  db = await createTestDb();
  const dir = createDirArchive(archiveDir);
  const agentServer = createAgentServer({
    token: 'agent-token',
    runtime,
    ledger: createFileLedger(home),
    logger: silentLogger,
    archive: {
      ...dir,
      save: async (id, file) => {
        await new Promise<void>((resolve) => {
          letArchiveFinish = resolve;
        });
        await dir.save(id, file);
        order.push('archived');
      },
    },
  });
  const fleet = {
    endpoint: async () => ({ url: 'http://agent.test', token: 'agent-token' }),
  } as unknown as AgentFleet;
  const dispatcher = inProcessDispatcher((job) => runExecution(deps, job), silentLogger);
  drain = () => dispatcher.drain();
  deps = {
    stores: createStores(db, dirPayloadStore(join(home, 'payloads'))),
    fleet,
    agentClient: new AgentClient(async (input, init) => agentServer.fetch(new Request(input, init))),
    dispatcher,
    signal: inProcessEventSignal(),
    clock: systemClock,
    logger: silentLogger,
  };
  await deps.stores.agents.createAgent(newAgent(bob, 'demo'));
});
afterAll(async () => {
  letArchiveFinish();
  await drain?.();
  await db?.drop();
});

describe('a turn whose transcript is still being archived', () => {
  it('is finished for its caller at once; the chat’s next turn runs once the archive is written', async () => {
    const first = await submitTask(deps, bob, 'demo', { message: 'one', start_chat: true });
    const done = await waitForTerminal(deps, first.execution, 10_000);
    expect(done.execution).toMatchObject({ status: 'success', response: 'answered one' });
    const session = done.execution.claude_session_id!;
    expect(existsSync(join(archiveDir, `${session}.jsonl`))).toBe(false);
    expect(order).toEqual(['run one']);

    // Accepted, not session_busy: the platform freed the lease, and the agent server queues the
    // turn behind the archive instead of refusing it.
    const next = await submitTask(deps, bob, 'demo', {
      message: 'two',
      resume_session_id: session,
      chat_session_id: first.chat_session_id!,
    });
    letArchiveFinish();
    const second = await waitForTerminal(deps, next.execution, 10_000);
    expect(second.execution).toMatchObject({ status: 'success', response: 'answered two' });
    expect(order.slice(0, 3)).toEqual(['run one', 'archived', 'run two']);
    await drain();
  });
});
