import type {
  Agent,
  AgentList,
  ChatDetail,
  ChatList,
  CreateAgentRequest,
  Execution,
  ExecutionList,
  ExecutionStatus,
  Me,
  Schedule,
  ScheduleInput,
  ScheduleList,
  TaskAccepted,
  TaskRequest,
  UserList,
} from '@reprise/functions/schemas';
import { ApiError } from './api-error';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export type ApiOptions = {
  baseUrl: string;
  fetch: FetchLike;
  getToken: () => string | null;
  /** Called once per 401 so the app can drop the token and go back to sign-in. */
  onUnauthorized: () => void;
};

export type ExecutionListParams = {
  limit?: number;
  cursor?: string | null;
  status?: ExecutionStatus | '';
  source?: string;
  ownerUserId?: string;
};

const enc = encodeURIComponent;

export function createApi(opts: ApiOptions) {
  async function send(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const token = opts.getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    if (init.body !== undefined && !headers.has('Content-Type'))
      headers.set('Content-Type', 'application/json');
    const res = await opts.fetch(`${opts.baseUrl}${path}`, { ...init, headers });
    if (res.status === 401) opts.onUnauthorized();
    if (!res.ok) throw await ApiError.from(res);
    return res;
  }

  async function json<T>(path: string, init?: RequestInit): Promise<T> {
    const res = await send(path, init);
    return (await res.json()) as T;
  }

  const post = <T>(path: string, body?: unknown) =>
    json<T>(path, { method: 'POST', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  return {
    send,
    me: () => json<Me>('/api/me'),
    listUsers: () => json<UserList>('/api/users'),
    listAgents: () => json<AgentList>('/api/agents'),
    getAgent: (name: string) => json<Agent>(`/api/agents/${enc(name)}`),
    createAgent: (body: CreateAgentRequest) => post<Agent>('/api/agents', body),
    startAgent: (name: string) => post<Agent>(`/api/agents/${enc(name)}/start`),
    stopAgent: (name: string) => post<Agent>(`/api/agents/${enc(name)}/stop`),
    /** Wakes a sleeping agent ahead of a turn; idempotent, so callers need not check its state. */
    wakeAgent: (name: string) => post<Agent>(`/api/agents/${enc(name)}/wake`),
    runTask: (name: string, body: TaskRequest) => post<TaskAccepted>(`/api/agents/${enc(name)}/task`, body),
    listExecutions(name: string, p: ExecutionListParams = {}) {
      const q = new URLSearchParams();
      if (p.limit) q.set('limit', String(p.limit));
      if (p.cursor) q.set('cursor', p.cursor);
      if (p.status) q.set('status', p.status);
      if (p.source) q.set('source', p.source);
      if (p.ownerUserId) q.set('owner_user_id', p.ownerUserId);
      const qs = q.toString();
      return json<ExecutionList>(`/api/agents/${enc(name)}/executions${qs ? `?${qs}` : ''}`);
    },
    getExecution: (id: string) => json<Execution>(`/api/executions/${enc(id)}`),
    cancelExecution: (id: string) =>
      send(`/api/executions/${enc(id)}/cancel`, { method: 'POST' }).then(() => {}),
    listChats: (name: string) => json<ChatList>(`/api/agents/${enc(name)}/chats`),
    getChat: (id: string) => json<ChatDetail>(`/api/chats/${enc(id)}`),
    listSchedules: (name: string) => json<ScheduleList>(`/api/agents/${enc(name)}/schedules`),
    createSchedule: (name: string, body: ScheduleInput) =>
      json<Schedule>(`/api/agents/${enc(name)}/schedules`, { method: 'POST', body: JSON.stringify(body) }),
    /** PUT replaces the whole definition; toggling `enabled` sends everything else unchanged. */
    updateSchedule: (id: string, body: ScheduleInput) =>
      json<Schedule>(`/api/schedules/${enc(id)}`, { method: 'PUT', body: JSON.stringify(body) }),
    deleteSchedule: (id: string) => send(`/api/schedules/${enc(id)}`, { method: 'DELETE' }).then(() => {}),
    runSchedule: (id: string) => post<TaskAccepted>(`/api/schedules/${enc(id)}/run`),
  };
}

export type Api = ReturnType<typeof createApi>;
