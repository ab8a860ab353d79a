import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '@reprise/functions/data/keys';
import type { ExecutionRecord } from '@reprise/functions/data/stores/execution-record';
import { ulid, uuid } from '@reprise/functions/lib/ids';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientFor, startLocalStack, type TestStack } from '../helpers/local-stack';
import { parseSse } from '../helpers/sse';

type Client = Awaited<ReturnType<typeof clientFor>>;
let stack: TestStack;
let bob: Client;
let alice: Client;
let finishedRun: { id: string; lastSeq: number };

beforeAll(async () => {
  stack = await startLocalStack({ dynamoEndpoint: inject('dynamoEndpoint') });
  [bob, alice] = await Promise.all([
    clientFor(stack.url, 'bob@acme.test'),
    clientFor(stack.url, 'alice@acme.test'),
  ]);
  const run = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'hello' });
  const events = await bob.call('GET', `/api/executions/${run.body.id}/events?format=json`);
  finishedRun = { id: run.body.id, lastSeq: events.body.events.at(-1).seq };
});
afterAll(() => stack?.stop());

/** Reads a whole SSE response (the server ends it) into its events. */
async function sse(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.url}${path}`, {
    headers: { authorization: `Bearer ${bob.token}`, ...headers },
  });
  return parseSse(await res.text()).filter((e) => e.event !== undefined);
}

describe('event streams of a finished execution', () => {
  it.each([
    ['at the last event', 0],
    ['past the last event', 1000],
  ])('end with the terminal result event when Last-Event-ID is %s', async (_, beyond) => {
    const events = await sse(`/api/executions/${finishedRun.id}/events`, {
      'last-event-id': String(finishedRun.lastSeq + beyond),
    });
    expect(events.map((e) => e.event)).toEqual(['result']);
    expect(events[0]!.data.status).toBe('success');
  });

  it('answers the JSON long-poll past the last event with done at once', async () => {
    const page = await bob.call(
      'GET',
      `/api/executions/${finishedRun.id}/events?format=json&wait=20&after=${finishedRun.lastSeq + 5}`,
    );
    expect(page.body).toEqual({ events: [], done: true });
  });

  it('ends with a result built from the record when the run stored none', async () => {
    const run = await bob.call('POST', '/api/agents/demo/task?wait=25', { message: 'hello again' });
    const events = (await bob.call('GET', `/api/executions/${run.body.id}/events?format=json`)).body.events;
    const result = events.at(-1);
    expect(result.type).toBe('result');
    // As if the runner died between storing the status and the result event.
    await stack.db.doc.send(
      new DeleteCommand({ TableName: stack.db.table, Key: keys.event('acme', run.body.id, result.seq) }),
    );
    const streamed = await sse(`/api/executions/${run.body.id}/events`, {
      'last-event-id': String(result.seq - 1),
    });
    expect(streamed.map((e) => e.event)).toEqual(['result']);
    expect(streamed[0]!.data).toMatchObject({ status: 'success', response: run.body.response });
    const page = await bob.call(
      'GET',
      `/api/executions/${run.body.id}/events?format=json&after=${result.seq - 1}`,
    );
    expect(page.body.done).toBe(true);
  });
});

describe('paging executions', () => {
  const agent = 'pager';
  const bobRuns = 100;
  const danaRuns = 5;
  const danaChatTurns = 10;

  beforeAll(async () => {
    await bob.call('POST', '/api/agents', { name: agent, shared_with: ['dana@acme.test'] });
    // Stored directly: 115 runs through the CLI would take minutes. Messages of 12 KB make the
    // unfiltered page larger than one DynamoDB response (1 MB), the case that used to come up short.
    const grouped = [
      ...Array.from({ length: bobRuns }, () => ['usr-bob', 'manual'] as const),
      ...Array.from({ length: danaRuns }, () => ['usr-dana', 'manual'] as const),
      ...Array.from({ length: danaChatTurns }, () => ['usr-dana', 'chat'] as const),
    ];
    // A fixed interleaving (37 is coprime with 115), so filtered items are spread over the pages.
    const owners = grouped.map((_, i) => grouped[(i * 37) % grouped.length]!);
    const base = Date.now() - 3_600_000;
    for (const [i, [owner, source]] of owners.entries()) {
      await stack.platform.core.stores.executions.createExecution(record(base + i * 10, owner, source, i));
    }
  });

  const list = (c: Client, query: string) => c.call('GET', `/api/agents/${agent}/executions?${query}`);

  it('fills a page of 100 when that many exist and gives no cursor on the last page', async () => {
    const first = await list(bob, 'limit=100');
    expect(first.body.items).toHaveLength(100);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await list(bob, `limit=100&cursor=${first.body.next_cursor}`);
    // Bob sees his runs and Dana's plain runs, not her chat turns.
    expect(second.body.items).toHaveLength(bobRuns + danaRuns - 100);
    expect(second.body.next_cursor).toBeNull();
    const ids = [...first.body.items, ...second.body.items].map((e: { id: string }) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort().reverse()).toEqual(ids);
  });

  it('pages one by one with owner_user_id and needs no empty extra page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < danaRuns + 2; page++) {
      const res = await list(bob, `limit=1&owner_user_id=usr-dana${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.body.items).toHaveLength(1);
      expect(res.body.items[0].owner_user_id).toBe('usr-dana');
      seen.push(res.body.items[0].id);
      cursor = res.body.next_cursor;
      if (!cursor) break;
    }
    expect(seen).toHaveLength(danaRuns);
    expect(cursor).toBeNull();
  });

  it('shows an admin every run, chat turns included', async () => {
    const all = await list(alice, 'limit=100&source=chat');
    expect(all.body.items).toHaveLength(danaChatTurns);
    expect(all.body.next_cursor).toBeNull();
  });

  function record(at: number, owner: string, source: 'manual' | 'chat', i: number): ExecutionRecord {
    return {
      tenant: 'acme',
      id: ulid(at),
      agent,
      runtime: 'claude',
      source,
      status: 'success',
      message: `run ${i} ${'x'.repeat(12_000)}`,
      model: null,
      response: 'done',
      error: null,
      owner_user_id: owner,
      triggered_by: { kind: 'user', id: owner },
      claude_session_id: uuid(),
      resumed_session_id: null,
      resumed_from_execution_id: null,
      chat_session_id: source === 'chat' ? ulid(at) : null,
      forked: false,
      cost_usd: null,
      context_used: null,
      context_max: null,
      num_turns: 1,
      tool_calls: [],
      created_at: new Date(at).toISOString(),
      started_at: new Date(at).toISOString(),
      finished_at: new Date(at + 5).toISOString(),
      duration_ms: 5,
      schedule_id: null,
      timeout_seconds: 600,
      options: {},
      lease_session_id: null,
    };
  }
});
