import { AgentEvent, type AgentTaskRequest, SessionState } from '../lib/agent-events';
import type { AgentEndpoint } from './agent-fleet';

export class AgentHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** One NDJSON line, checked against the protocol's schema: a line outside it ends the stream. */
function parseEvent(line: string): AgentEvent {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new AgentHttpError(502, 'agent_unreachable', 'Agent server sent a line that is not JSON');
  }
  const parsed = AgentEvent.safeParse(value);
  if (!parsed.success) {
    const where = parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ');
    throw new AgentHttpError(502, 'agent_unreachable', `Agent server sent an invalid event (${where})`);
  }
  return parsed.data;
}

/** The platform's side of the agent server protocol (NDJSON over HTTP, bearer token). */
export class AgentClient {
  constructor(private readonly fetchImpl: typeof fetch = fetch) {}

  async sessionState(endpoint: AgentEndpoint, sessionId: string): Promise<SessionState['state']> {
    const res = await this.call(endpoint, 'GET', `/api/sessions/${encodeURIComponent(sessionId)}`);
    return SessionState.parse(await res.json()).state;
  }

  async cancel(endpoint: AgentEndpoint, executionId: string): Promise<void> {
    await this.call(endpoint, 'POST', `/api/task/${encodeURIComponent(executionId)}/cancel`).catch(() => {});
  }

  /** Streams the task's events as the agent server writes them. */
  async *runTask(
    endpoint: AgentEndpoint,
    body: AgentTaskRequest,
    signal?: AbortSignal,
  ): AsyncGenerator<AgentEvent> {
    const res = await this.call(endpoint, 'POST', '/api/task', body, signal);
    if (!res.body) throw new AgentHttpError(502, 'agent_unreachable', 'Agent server sent no body');
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (line) yield parseEvent(line);
        newline = buffer.indexOf('\n');
      }
    }
    if (buffer.trim()) yield parseEvent(buffer.trim());
  }

  private async call(
    endpoint: AgentEndpoint,
    method: string,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ) {
    const res = await this.fetchImpl(`${endpoint.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${endpoint.token}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    });
    if (!res.ok) {
      const parsed = (await res.json().catch(() => null)) as {
        error?: { code?: string; message?: string };
      } | null;
      throw new AgentHttpError(
        res.status,
        parsed?.error?.code ?? 'agent_error',
        parsed?.error?.message ?? res.statusText,
      );
    }
    return res;
  }
}
