import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AgentEvent, ResultEvent } from '@reprise/functions/agent-events';
import type { AgentServerProcess } from '../../helpers/agent-server';

export type Server = Pick<AgentServerProcess, 'url' | 'token'>;

/** An event and the index of the network read it arrived in: proof of streaming without timing. */
export interface Received {
  event: AgentEvent;
  read: number;
}

export const post = (server: Server, path: string, body?: unknown, token = server.token) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

export const readEvents = async (response: Response): Promise<Received[]> => {
  const out: Received[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  let read = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    read += 1;
    buffer += decoder.decode(chunk, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) out.push({ event: JSON.parse(line) as AgentEvent, read });
  }
  return out;
};

export interface Turn {
  status: number;
  received: Received[];
  events: AgentEvent[];
  result: ResultEvent;
  text: string;
}

export const task = (message: string, extra: Record<string, unknown> = {}) => ({
  execution_id: `ex-${randomUUID()}`,
  session_id: randomUUID(),
  message,
  ...extra,
});

export const runTurn = async (server: Server, body: Record<string, unknown>): Promise<Turn> =>
  runTurnFrom(await post(server, '/api/task', body));

export const runTurnFrom = async (response: Response): Promise<Turn> => {
  if (response.status !== 200) throw new Error(`task answered ${response.status}: ${await response.text()}`);
  const received = await readEvents(response);
  const events = received.map((r) => r.event);
  const results = events.filter((e): e is ResultEvent => e.type === 'result');
  if (results.length !== 1) throw new Error(`expected exactly one result, got ${results.length}`);
  const text = events.map((e) => (e.type === 'text' ? e.text : '')).join('');
  return { status: response.status, received, events, result: results[0]!, text };
};

/** Processes whose command line mentions the id: a surviving `claude --resume <id>` would show here. */
export const processesMentioning = (id: string): string[] =>
  execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(id) && !line.includes('ps -eo'));

/** Resolves with the first event while the rest of the stream keeps flowing into `rest`. */
export const firstEvent = async (
  response: Response,
): Promise<{ first: AgentEvent; rest: Promise<AgentEvent[]> }> => {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  while (!buffer.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('stream ended before the first event');
    buffer += decoder.decode(value, { stream: true });
  }
  const newline = buffer.indexOf('\n');
  const first = JSON.parse(buffer.slice(0, newline)) as AgentEvent;
  buffer = buffer.slice(newline + 1);
  const rest = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
    }
    return [
      first,
      ...buffer
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as AgentEvent),
    ];
  })();
  return { first, rest };
};

/** Polls a condition that an external process will make true (a CLI starting); fails after `ms`. */
export const waitFor = async (condition: () => boolean, ms = 15_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
