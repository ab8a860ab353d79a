import { readFileSync } from 'node:fs';
import type { AgentEndpoint, AgentRef } from '@reprise/functions/fleet/agent-fleet';
import { commandLine, cpuMsByRole, processesOfGroup } from '../helpers/process-tree';
import { median } from './stats';

/**
 * Resident memory of a warm session: every process of its group (the agent server spawns it
 * detached), so bubblewrap's wrapper and the CLI it runs are counted together.
 */
const groupRssKb = (group: number): number =>
  processesOfGroup(group).reduce((kb, pid) => {
    try {
      return kb + Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      return kb; // exited while we looked
    }
  }, 0);

/**
 * Which part of the local stack a process is: this process runs the stack (and the bench's
 * client); DynamoDB Local is a JVM; each agent server is a node process running agent-image;
 * anything else below them is a CLI run (bubblewrap and the CLI inside it).
 */
const roleOf = (pid: number): string => {
  if (pid === process.pid) return 'stack';
  const cmd = commandLine(pid);
  if (cmd.includes('DynamoDBLocal')) return 'dynamodb';
  if (cmd.includes('agent-image/src/main')) return 'agent_server';
  return 'cli';
};

interface Options {
  url: string;
  token: string;
  agent: AgentRef;
  endpoint(ref: AgentRef): Promise<AgentEndpoint | null>;
  runs: number;
}

interface Chat {
  sessionId: string | null;
  chatId: string | null;
}

/**
 * Chat turns on a warm chat against the same turns on a cold one, interleaved, all through the
 * platform (HTTP in → finished execution out). Before each cold turn the cold chat's idle process
 * is dropped on the agent server, so that turn takes the path of an evicted chat: `--resume`.
 */
export async function benchWarmTurns(opts: Options) {
  const headers = { authorization: `Bearer ${opts.token}`, 'content-type': 'application/json' };
  const bodyFor = (chat: Chat, message: string) =>
    JSON.stringify(
      chat.sessionId
        ? { message, resume_session_id: chat.sessionId, chat_session_id: chat.chatId }
        : { message, start_chat: true },
    );
  // biome-ignore lint/suspicious/noExplicitAny: bench bodies are read field by field
  const post = async (chat: Chat, message: string, wait: number): Promise<any> => {
    const res = await fetch(`${opts.url}/api/agents/${opts.agent.agent}/task?wait=${wait}`, {
      method: 'POST',
      headers,
      body: bodyFor(chat, message),
    });
    // biome-ignore lint/suspicious/noExplicitAny: bench bodies are read field by field
    const body: any = await res.json();
    if (res.status !== 200 && res.status !== 202)
      throw new Error(`turn: ${res.status} ${JSON.stringify(body)}`);
    chat.chatId ??= body.chat_session_id ?? null;
    return body;
  };
  const finished = async (chat: Chat, executionId: string) => {
    const res = await fetch(`${opts.url}/api/executions/${executionId}`, { headers });
    const execution = (await res.json()) as { status: string; claude_session_id: string | null };
    if (execution.status !== 'success') throw new Error(`turn ended ${execution.status}`);
    chat.sessionId = execution.claude_session_id;
  };

  /** HTTP in → finished execution out. */
  const turn = async (chat: Chat, message: string): Promise<number> => {
    const start = performance.now();
    const body = await post(chat, message, 25);
    const ms = performance.now() - start;
    if (body.status !== 'success') throw new Error(`turn: ${JSON.stringify(body).slice(0, 300)}`);
    chat.sessionId = body.claude_session_id;
    return ms;
  };

  /** POST of the turn → first `text` event at an SSE client; then waits for the turn to end. */
  const firstEvent = async (chat: Chat, message: string): Promise<number> => {
    const start = performance.now();
    const { execution_id: id } = (await post(chat, message, 0)) as { execution_id: string };
    const sse = await fetch(`${opts.url}/api/executions/${id}/events`, { headers });
    const reader = sse.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let first: number | null = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      if (first === null && /^event: text$/m.test(buffer)) first = performance.now() - start;
    }
    if (first === null) throw new Error('no text event');
    await finished(chat, id);
    return first;
  };

  const agentCall = async (method: string, path: string) => {
    const endpoint = await opts.endpoint(opts.agent);
    if (!endpoint) throw new Error('the agent is not running');
    return fetch(`${endpoint.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${endpoint.token}` },
    });
  };
  const goCold = async (chat: Chat) => {
    const res = await agentCall('DELETE', `/api/warm/${chat.sessionId}`);
    if (res.status !== 204 && res.status !== 404) throw new Error(`drop: ${res.status}`);
  };

  const warm: Chat = { sessionId: null, chatId: null };
  const cold: Chat = { sessionId: null, chatId: null };
  for (let i = 1; i <= 5; i++) {
    await turn(warm, `warm-up ${i}`);
    await turn(cold, `warm-up ${i}`);
  }
  const listed = (await (await agentCall('GET', '/api/warm')).json()) as {
    items: { session_id: string; pid: number | null }[];
  };
  const pid = listed.items.find((item) => item.session_id === warm.sessionId)?.pid;
  const rssKb = pid ? groupRssKb(pid) : Number.NaN;

  const samples = {
    warmTurn: [] as number[],
    coldTurn: [] as number[],
    warmFirst: [] as number[],
    coldFirst: [] as number[],
  };
  for (let i = 0; i < opts.runs; i++) {
    samples.warmTurn.push(await turn(warm, `hello ${i}`));
    await goCold(cold);
    samples.coldTurn.push(await turn(cold, `hello ${i}`));
    samples.warmFirst.push(await firstEvent(warm, `streamed ${i}`));
    await goCold(cold);
    samples.coldFirst.push(await firstEvent(cold, `streamed ${i}`));
  }
  // CPU, not wall time: what every process of the stack spends on one warm turn, counted over
  // back-to-back turns (so each turn's after-work lands in the span too). Host load that
  // stretched wall-clock medians here by half on unchanged code moves it far less.
  const before = cpuMsByRole(process.pid, roleOf);
  for (let i = 0; i < opts.runs; i++) await turn(warm, `counted ${i}`);
  const after = cpuMsByRole(process.pid, roleOf);
  const cpuPerTurn = Object.fromEntries(
    Object.keys(after).map((role) => [role, (after[role]! - (before[role] ?? 0)) / opts.runs]),
  );
  return {
    warmTurnCpuMs: Object.values(cpuPerTurn).reduce((a, b) => a + b, 0),
    warmTurnCpuByRole: cpuPerTurn,
    warmTurnMs: median(samples.warmTurn),
    coldTurnMs: median(samples.coldTurn),
    warmFirstEventMs: median(samples.warmFirst),
    coldFirstEventMs: median(samples.coldFirst),
    warmProcessRssMb: rssKb / 1024,
  };
}
