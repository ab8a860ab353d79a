import type { AgentEvent } from '@reprise/functions/agent-events';

/** A fake `fetch` for the SPA: routes by "METHOD /path", records every call. */
export type Call = {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  headers: Headers;
};
export type Handler = (call: Call) => Response | unknown | Promise<Response | unknown>;
/** A function answers per call; anything else is a fixed JSON 200 body. */
export type Route = Handler | Record<string, unknown>;

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export const apiError = (status: number, code: string, message = code) =>
  json(status, { error: { code, message } });

export const sse = (events: AgentEvent[], firstSeq = 1) =>
  new Response(
    events
      .map((data, i) => `id: ${firstSeq + i}\nevent: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`)
      .join(''),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );

/** An SSE response the test writes to event by event, to watch streaming in the UI. */
export function liveSse() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let seq = 0;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    emit(data: AgentEvent) {
      seq++;
      controller.enqueue(
        encoder.encode(`id: ${seq}\nevent: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`),
      );
    },
    close: () => controller.close(),
  };
}

export function result(
  response: string,
  session_id: string | null,
  extra: Partial<AgentEvent> = {},
): AgentEvent {
  return {
    type: 'result',
    status: 'success',
    session_id,
    response,
    error: null,
    cost_usd: 0.001,
    context_used: 100,
    context_max: 200000,
    num_turns: 1,
    tool_calls: [],
    duration_ms: 5,
    ...extra,
  } as AgentEvent;
}

/** Route keys are "METHOD /path" where a `:name` segment matches any one segment. */
function match(routes: Record<string, Route>, method: string, path: string) {
  const parts = path.split('/');
  for (const [key, handler] of Object.entries(routes)) {
    const [m, pattern = ''] = key.split(' ');
    const want = pattern.split('/');
    if (m !== method || want.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    want.forEach((w, i) => {
      if (w.startsWith(':')) params[w.slice(1)] = parts[i] ?? '';
      else if (w !== parts[i]) ok = false;
    });
    if (ok) return { handler, params };
  }
  return null;
}

export function createFakeServer(routes: Record<string, Route>) {
  const calls: Call[] = [];
  const fetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input, 'http://app.test');
    const method = (init.method ?? 'GET').toUpperCase();
    const raw = init.body;
    const found = match(routes, method, url.pathname);
    const call: Call = {
      method,
      path: url.pathname,
      params: found?.params ?? {},
      query: url.searchParams,
      body: typeof raw === 'string' ? JSON.parse(raw) : undefined,
      headers: new Headers(init.headers),
    };
    calls.push(call);
    if (!found) return apiError(404, 'not_found', `no fake route for ${method} ${url.pathname}`);
    const out = typeof found.handler === 'function' ? await found.handler(call) : found.handler;
    return out instanceof Response ? out : json(200, out);
  };
  return {
    fetch,
    calls,
    /** Bodies sent to `POST /api/agents/{agent}/task`, in order. */
    taskBodies: (agent = 'demo') =>
      calls.filter((c) => c.method === 'POST' && c.path === `/api/agents/${agent}/task`).map((c) => c.body),
    called: (method: string, path: string) => calls.some((c) => c.method === method && c.path === path),
  };
}
