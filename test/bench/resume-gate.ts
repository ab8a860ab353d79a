import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { passResumeGate } from '@reprise/functions/core/resume-gate';
import type { Db } from '@reprise/functions/data/client';
import { keys } from '@reprise/functions/data/keys';
import { dirPayloadStore } from '@reprise/functions/data/payloads/dir';
import { ExecutionStore } from '@reprise/functions/data/stores/executions';
import { bob as who } from '../helpers/fixtures';
import { median, timeIt } from './stats';

/** Fills one agent with `count` executions (index keys only: the gate reads nothing else). */
async function fill(db: Db, agent: string, count: number): Promise<string[]> {
  const sessions: string[] = [];
  const items = Array.from({ length: count }, (_, i) => {
    const id = `${agent === 'small' ? 'S' : 'L'}${String(i).padStart(25, '0')}`;
    const session = `s-${agent}-${i}`;
    sessions.push(session);
    return {
      ...keys.execution('acme', id),
      id,
      owner_user_id: 'usr-bob',
      gsi1pk: keys.executionsOfAgent('acme', agent),
      gsi1sk: id,
      gsi3pk: keys.sessionOwners('acme', agent, session),
      gsi3sk: id,
    };
  });
  const chunks = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  // A few writers in parallel; DynamoDB Local is the bottleneck, not the client.
  for (let i = 0; i < chunks.length; i += 8) {
    await Promise.all(
      chunks.slice(i, i + 8).map(async (chunk) => {
        let requests = chunk.map((Item) => ({ PutRequest: { Item } }));
        while (requests.length > 0) {
          const out = await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.table]: requests } }));
          requests = (out.UnprocessedItems?.[db.table] ?? []) as typeof requests;
        }
      }),
    );
  }
  return sessions;
}

async function gateLatency(db: Db, agent: string, sessions: string[], samples: number): Promise<number> {
  // The gate reads only index keys; the payload folder is never touched.
  const store = new ExecutionStore(db, dirPayloadStore(join(tmpdir(), 'rp-bench-payloads')));
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const session = sessions[Math.floor(Math.random() * sessions.length)]!;
    times.push(await timeIt(() => passResumeGate(store, who, agent, session)));
  }
  return median(times);
}

/** The gate is one Query on the session-owner index, so its cost must not grow with history. */
export async function benchResumeGate(db: Db, progress: (s: string) => void) {
  progress('resume gate: 1,000 executions');
  const small = await fill(db, 'small', 1_000);
  progress('resume gate: 100,000 executions (takes a while on DynamoDB Local)');
  const large = await fill(db, 'large', 100_000);
  await gateLatency(db, 'small', small, 50);
  const atSmall = await gateLatency(db, 'small', small, 300);
  const atLarge = await gateLatency(db, 'large', large, 300);
  return { atSmall, atLarge, ratio: atLarge / atSmall };
}
