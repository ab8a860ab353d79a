import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { bigText } from '../../infra/local/src/scripted-model/script';
import {
  type Client,
  clientFor,
  stackPerFile,
  startLocalStack,
  type TestStack,
} from '../helpers/local-stack';

let stack: TestStack;
let bob: Client;
stackPerFile((s, b) => {
  stack = s;
  bob = b;
});

const finished = async (c: Client, id: string) => {
  await stack.platform.drain();
  return (await c.call('GET', `/api/executions/${id}`)).body;
};

describe('large payloads', () => {
  it('stores the largest message and system prompt the contract allows, in 4-byte characters, whole', async () => {
    const message = `${'😀'.repeat(99_990)}say hello`;
    const systemPrompt = '😀'.repeat(25_000);
    const res = await bob.call('POST', '/api/agents/demo/task', { message, system_prompt: systemPrompt });
    expect(res.status).toBe(202);
    const e = await finished(bob, res.body.execution_id);
    expect(e.status).toBe('success');
    expect(e.message).toBe(message);
    const listed = await bob.call('GET', '/api/agents/demo/executions?limit=1');
    expect(listed.body.items[0].message).toBe(message.slice(0, 200));
  });

  it('answers one character over the limit with 413 payload_too_large', async () => {
    const res = await bob.call('POST', '/api/agents/demo/task', { message: '😀'.repeat(100_001) });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });

  it('stores a response of several MB and its events, and reads both back whole', async () => {
    const chars = 3_000_000;
    const res = await bob.call('POST', '/api/agents/demo/task', { message: `big: ${chars}` });
    const e = await finished(bob, res.body.execution_id);
    expect(e.status).toBe('success');
    expect(e.response.length).toBe(chars);
    expect(e.response).toBe(bigText(chars));
    const page = await bob.call('GET', `/api/executions/${e.id}/events?format=json`);
    expect(page.body.done).toBe(true);
    const text = page.body.events
      .filter((ev: { type: string }) => ev.type === 'text')
      .map((ev: { data: { text: string } }) => ev.data.text)
      .join('');
    expect(text).toBe(bigText(chars));
    expect(page.body.events.at(-1).data.response).toBe(bigText(chars));
    const payloads = await readdir(join(stack.dataDir, 'payloads', 'acme', 'executions', e.id));
    expect(payloads).toContain('response.json');
  });
});

describe('when the payload store refuses a write', () => {
  let broken: TestStack;
  afterAll(() => broken?.stop());

  it('still ends the run, failed with a reason, instead of leaving it running', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'rp-'));
    // A file where the payload folder should be: every payload write fails with ENOTDIR.
    await writeFile(join(dataDir, 'payloads'), 'not a folder');
    broken = await startLocalStack({ dataDir, dynamoEndpoint: inject('dynamoEndpoint') });
    const client = await clientFor(broken.url, 'bob@acme.test');
    const res = await client.call('POST', '/api/agents/demo/task', { message: 'big: 200000' });
    expect(res.status).toBe(202);
    await broken.platform.drain();
    const e = (await client.call('GET', `/api/executions/${res.body.execution_id}`)).body;
    expect(e.status).toBe('failed');
    expect(e.error).toEqual({
      code: 'internal',
      message: 'The run finished but its result could not be stored',
    });
    // Followers are told the run is over, even though its large events could not be stored.
    let after = 0;
    let done = false;
    for (let call = 0; call < 5 && !done; call++) {
      const page = await client.call('GET', `/api/executions/${e.id}/events?format=json&after=${after}`);
      after = page.body.events.at(-1)?.seq ?? after;
      done = page.body.done;
    }
    expect(done).toBe(true);
  });
});
