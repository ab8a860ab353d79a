import { createHash } from 'node:crypto';
import { REDACTED } from '@reprise/functions/sanitizer';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clientFor, startLocalStack, type TestStack } from '../helpers/local-stack';

type Client = Awaited<ReturnType<typeof clientFor>>;
let stack: TestStack;
let bob: Client;

const SECRET = `sk-ant-api03-${'Qx7'.repeat(12)}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(async () => {
  stack = await startLocalStack({ dynamoEndpoint: inject('dynamoEndpoint') });
  bob = await clientFor(stack.url, 'bob@acme.test');
});
afterAll(() => stack?.stop());

describe('a credential in what a person sends', () => {
  it('is redacted in the stored message and the chat title while the agent gets it as sent', async () => {
    const message = `run: printf %s ${SECRET} | sha256sum`;
    const turn = await bob.call('POST', '/api/agents/demo/task?wait=25', { message, start_chat: true });
    expect(turn.status).toBe(200);
    // The tool ran on the real secret: its hash (not itself a secret) is in the answer.
    expect(turn.body.response).toContain(sha256(SECRET));
    expect(JSON.stringify(turn.body)).not.toContain(SECRET);

    const stored = await bob.call('GET', `/api/executions/${turn.body.id}`);
    expect(stored.body.message).toBe(`run: printf %s ${REDACTED} | sha256sum`);
    const listed = await bob.call('GET', '/api/agents/demo/executions');
    const item = listed.body.items.find((x: { id: string }) => x.id === turn.body.id);
    expect(JSON.stringify(item)).not.toContain(SECRET);
    const chat = await bob.call('GET', `/api/chats/${turn.body.chat_session_id}`);
    expect(chat.body.title).toContain(REDACTED);
    expect(JSON.stringify(chat.body)).not.toContain(SECRET);
    const events = await bob.call('GET', `/api/executions/${turn.body.id}/events?format=json`);
    expect(JSON.stringify(events.body)).not.toContain(SECRET);
  });

  it('is redacted in a schedule’s stored name and message', async () => {
    const created = await bob.call('POST', '/api/agents/demo/schedules', {
      name: `nightly PASSWORD=hunter2`,
      cron: '0 3 * * *',
      message: `deploy with ${SECRET}`,
    });
    expect(created.status).toBe(201);
    const shown = await bob.call('GET', `/api/schedules/${created.body.id}`);
    expect(shown.body.message).toBe(`deploy with ${REDACTED}`);
    expect(shown.body.name).toBe(`nightly PASSWORD=${REDACTED}`);
  });
});
