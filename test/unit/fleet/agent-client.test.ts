import { AgentClient, AgentHttpError } from '@reprise/functions/fleet/agent-client';
import { describe, expect, it } from 'vitest';

const endpoint = { url: 'http://agent.test', token: 't' };
const ndjson = (...lines: string[]) => {
  const body = lines.join('\n');
  const fetchImpl = (async () =>
    new Response(body, { headers: { 'content-type': 'application/x-ndjson' } })) as typeof fetch;
  return new AgentClient(fetchImpl);
};
const task = { execution_id: 'e1', message: 'hi', session_id: 's1' };

async function collect(client: AgentClient) {
  const out: unknown[] = [];
  for await (const ev of client.runTask(endpoint, task)) out.push(ev);
  return out;
}

describe('AgentClient.runTask', () => {
  it('yields each NDJSON line parsed by the AgentEvent schema (unknown fields dropped)', async () => {
    const client = ndjson(
      JSON.stringify({ type: 'status', status: 'running', session_id: 's1', extra: 'x' }),
      JSON.stringify({ type: 'text', text: 'hello' }),
    );
    expect(await collect(client)).toEqual([
      { type: 'status', status: 'running', session_id: 's1' },
      { type: 'text', text: 'hello' },
    ]);
  });

  it('ends the stream with agent_unreachable on an event outside the protocol', async () => {
    const client = ndjson(JSON.stringify({ type: 'text', text: 'ok' }), JSON.stringify({ type: 'text' }));
    const err = await collect(client).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentHttpError);
    expect(err).toMatchObject({ status: 502, code: 'agent_unreachable' });
    expect((err as Error).message).toContain('text');
  });

  it('ends the stream with agent_unreachable on a line that is not JSON', async () => {
    const err = await collect(ndjson('{"type":')).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'agent_unreachable' });
  });
});
