import { type AgentEvent, type AgentTaskRequest, SessionState } from '../lib/agent-events';
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
        if (line) yield JSON.parse(line) as AgentEvent;
        newline = buffer.indexOf('\n');
      }
    }
    if (buffer.trim()) yield JSON.parse(buffer) as AgentEvent;
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
