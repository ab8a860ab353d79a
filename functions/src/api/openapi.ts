import * as z from 'zod/mini';
import * as s from '../lib/schemas/index';

/**
 * The contract as data: `GET /api/openapi.json`, built from the same zod schemas that validate
 * requests, so the document cannot describe a shape the code does not enforce.
 *
 * Adding a route: add one entry to OPERATIONS, keyed by its operationId (camelCase, never renamed:
 * generated clients use it as the method name). For example
 *
 *   wakeAgent: {
 *     method: 'post', path: '/api/agents/{name}/wake', tag: 'Agents', summary: 'Wake a sleeping agent',
 *     ok: { 202: s.Agent }, errors: [404],
 *   },
 *
 * - `tag` is a key of TAGS (a new resource adds its tag there, with a description).
 * - Path parameters named `name` are agent names and `id` are ULIDs; give `params` otherwise.
 * - `query` and `body` take the route's own zod schemas (the ones passed to `validate`).
 * - `ok` maps each success status to its schema (`null` for no body, or `content` for several
 *   media types). Error responses are added for you: 400 when anything is validated, 413 and 415
 *   with a body, 422 with the Idempotency-Key header, 401 and 429 unless `public`, 431 and 500 always; list the others the code throws in `errors`
 *   (403, 404, 409, 410, 503). `public: true` drops the security requirement (`security: []`).
 * - A response schema that clients name goes in NAMED below.
 * - Then run `npm run openapi:types` to regenerate the committed client types.
 * test/unit/openapi.test.ts fails until the app's routes and this table agree, lints the result
 * with Redocly and checks the generated types are current.
 */

type Method = 'get' | 'post' | 'put' | 'delete';
type ErrorStatus = 403 | 404 | 409 | 410 | 503;
type Schema = z.ZodMiniType;
type JsonSchema = Record<string, unknown>;
type Ok =
  | Schema
  | null
  | { description: string; schema?: Schema; content?: Record<string, Schema | JsonSchema> };

interface Operation {
  readonly method: Method;
  readonly path: string;
  readonly tag: Tag;
  readonly summary: string;
  readonly description?: string;
  /** Unauthenticated (no security requirement, no 401/429). */
  readonly public?: boolean;
  readonly params?: Record<string, Schema>;
  readonly query?: Schema;
  readonly body?: Schema;
  readonly headers?: readonly HeaderParam[];
  readonly ok: Partial<Record<200 | 201 | 202 | 204, Ok>>;
  readonly errors?: readonly ErrorStatus[];
}

const TAGS = {
  System: 'Health and this document; no authentication.',
  Me: 'The caller.',
  Users: "Members of the caller's tenant, so ids can be shown as people.",
  Agents: 'Agents of the tenant: one long-lived agent server each, with its own files and sessions.',
  Tasks: 'Running a task, which is also every chat turn.',
  Executions: 'Runs of an agent, their events and cancellation.',
  Chats: 'Chats: a series of turns resuming one session after another.',
  Schedules: 'Cron schedules that run a task as their creator.',
  Keys: 'API keys acting as the user who created them.',
} as const;
type Tag = keyof typeof TAGS;

/** Response schemas with a name in components.schemas (and in generated clients). */
const NAMED: Record<string, Schema> = {
  Error: s.ErrorBody,
  Health: s.Health,
  Me: s.Me,
  Agent: s.Agent,
  AgentList: s.AgentList,
  TaskAccepted: s.TaskAccepted,
  Execution: s.Execution,
  ExecutionSummary: s.ExecutionSummary,
  ExecutionList: s.ExecutionList,
  ExecutionEvent: s.ExecutionEvent,
  EventsPage: s.EventsPage,
  CancelAccepted: s.CancelAccepted,
  ChatSummary: s.ChatSummary,
  ChatList: s.ChatList,
  ChatDetail: s.ChatDetail,
  Schedule: s.Schedule,
  ScheduleList: s.ScheduleList,
  ApiKeySummary: s.ApiKeySummary,
  ApiKeyList: s.ApiKeyList,
  CreatedApiKey: s.CreatedApiKey,
};

const DEFAULT_PARAMS: Record<string, Schema> = { name: s.AgentName, id: s.Ulid };

const SSE = {
  type: 'string',
  description:
    'Server-sent events: each has `id: <seq>` and `event: status|text|tool_use|tool_result|result|error` ' +
    'with the ExecutionEvent `data` as JSON; `: heartbeat` comments every 15 s; the stream ends after ' +
    'the terminal event.',
};

export const OPERATIONS: Record<string, Operation> = {
  getHealth: {
    method: 'get',
    path: '/api/health',
    tag: 'System',
    summary: 'Health',
    public: true,
    ok: { 200: s.Health },
  },
  getReady: {
    method: 'get',
    path: '/api/ready',
    tag: 'System',
    summary: 'Readiness: 200 once runs can be served, 503 with the failing checks before',
    public: true,
    ok: { 200: s.Readiness },
    errors: [503],
  },
  getOpenApi: {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'System',
    summary: 'This OpenAPI document',
    public: true,
    ok: {
      200: { description: 'The OpenAPI 3.1 document', content: { 'application/json': { type: 'object' } } },
    },
  },
  getMe: { method: 'get', path: '/api/me', tag: 'Me', summary: 'The caller', ok: { 200: s.Me } },
  listUsers: {
    method: 'get',
    path: '/api/users',
    tag: 'Users',
    summary: "Members of the caller's tenant (user id, email, role)",
    ok: { 200: s.UserList },
  },
  listAgents: {
    method: 'get',
    path: '/api/agents',
    tag: 'Agents',
    summary: 'Agents the caller can see',
    ok: { 200: s.AgentList },
  },
  createAgent: {
    method: 'post',
    path: '/api/agents',
    tag: 'Agents',
    summary: 'Create an agent',
    body: s.CreateAgentRequest,
    ok: { 201: s.Agent },
    errors: [409],
  },
  getAgent: {
    method: 'get',
    path: '/api/agents/{name}',
    tag: 'Agents',
    summary: 'One agent',
    ok: { 200: s.Agent },
    errors: [404],
  },
  deleteAgent: {
    method: 'delete',
    path: '/api/agents/{name}',
    tag: 'Agents',
    summary: 'Delete an agent and its schedules',
    ok: { 204: null },
    errors: [403, 404],
  },
  startAgent: {
    method: 'post',
    path: '/api/agents/{name}/start',
    tag: 'Agents',
    summary: 'Start the agent',
    ok: { 202: s.Agent },
    errors: [404],
  },
  stopAgent: {
    method: 'post',
    path: '/api/agents/{name}/stop',
    tag: 'Agents',
    summary: 'Stop the agent',
    ok: { 202: s.Agent },
    errors: [404],
  },
  wakeAgent: {
    method: 'post',
    path: '/api/agents/{name}/wake',
    tag: 'Agents',
    summary: 'Wake a sleeping agent ahead of a run (idempotent; returns at once)',
    ok: { 202: s.Agent },
    errors: [404],
  },
  updateAgentSettings: {
    method: 'put',
    path: '/api/agents/{name}/settings',
    tag: 'Agents',
    summary: 'Idle timeout and run concurrency (owner or tenant admin)',
    body: s.AgentSettingsRequest,
    ok: { 200: s.Agent },
    errors: [403, 404],
  },
  shareAgent: {
    method: 'put',
    path: '/api/agents/{name}/sharing',
    tag: 'Agents',
    summary: 'Set who the agent is shared with',
    body: s.SharingRequest,
    ok: { 200: s.Agent },
    errors: [403, 404],
  },
  runTask: {
    method: 'post',
    path: '/api/agents/{name}/task',
    tag: 'Tasks',
    summary: 'Run a task or chat turn',
    description:
      'Answers 202 once the run is queued; with `wait=N`, 200 with the finished Execution when it ends ' +
      'within N seconds. A repeated Idempotency-Key answers with the first request’s execution.',
    query: s.TaskQuery,
    body: s.TaskRequest,
    headers: ['IdempotencyKey'],
    ok: {
      200: { description: 'Finished within `wait` seconds', schema: s.Execution },
      202: { description: 'Queued or running', schema: s.TaskAccepted },
    },
    errors: [404, 409, 410],
  },
  listExecutions: {
    method: 'get',
    path: '/api/agents/{name}/executions',
    tag: 'Executions',
    summary: 'Executions of the agent, newest first',
    query: s.ExecutionListQuery,
    ok: { 200: s.ExecutionList },
    errors: [404],
  },
  listChats: {
    method: 'get',
    path: '/api/agents/{name}/chats',
    tag: 'Chats',
    summary: 'Chats on the agent (the caller’s own; admins see all)',
    ok: { 200: s.ChatList },
    errors: [404],
  },
  getExecution: {
    method: 'get',
    path: '/api/executions/{id}',
    tag: 'Executions',
    summary: 'One execution',
    ok: { 200: s.Execution },
    errors: [404],
  },
  getExecutionEvents: {
    method: 'get',
    path: '/api/executions/{id}/events',
    tag: 'Executions',
    summary: 'Events of an execution (SSE, or JSON with format=json)',
    description:
      'A stream by default. `Last-Event-ID` (or `after`) resumes after that seq with no gap or ' +
      'duplicate. `format=json` long-polls up to `wait` seconds instead.',
    query: s.EventsQuery,
    headers: ['LastEventId'],
    ok: {
      200: {
        description: 'The events after the given seq',
        content: { 'text/event-stream': SSE, 'application/json': s.EventsPage },
      },
    },
    errors: [404],
  },
  cancelExecution: {
    method: 'post',
    path: '/api/executions/{id}/cancel',
    tag: 'Executions',
    summary: 'Cancel a run',
    ok: { 202: s.CancelAccepted },
    errors: [403, 404, 409],
  },
  getChat: {
    method: 'get',
    path: '/api/chats/{id}',
    tag: 'Chats',
    summary: 'A chat with its messages',
    ok: { 200: s.ChatDetail },
    errors: [404],
  },
  listSchedules: {
    method: 'get',
    path: '/api/agents/{name}/schedules',
    tag: 'Schedules',
    summary: 'Schedules of the agent',
    ok: { 200: s.ScheduleList },
    errors: [404],
  },
  createSchedule: {
    method: 'post',
    path: '/api/agents/{name}/schedules',
    tag: 'Schedules',
    summary: 'Create a schedule',
    body: s.ScheduleInput,
    ok: { 201: s.Schedule },
    errors: [404],
  },
  getSchedule: {
    method: 'get',
    path: '/api/schedules/{id}',
    tag: 'Schedules',
    summary: 'One schedule',
    ok: { 200: s.Schedule },
    errors: [404],
  },
  updateSchedule: {
    method: 'put',
    path: '/api/schedules/{id}',
    tag: 'Schedules',
    summary: 'Replace a schedule',
    body: s.ScheduleInput,
    ok: { 200: s.Schedule },
    errors: [403, 404],
  },
  deleteSchedule: {
    method: 'delete',
    path: '/api/schedules/{id}',
    tag: 'Schedules',
    summary: 'Delete a schedule',
    ok: { 204: null },
    errors: [403, 404],
  },
  runSchedule: {
    method: 'post',
    path: '/api/schedules/{id}/run',
    tag: 'Schedules',
    summary: 'Run a schedule now, as its creator',
    ok: { 202: s.TaskAccepted },
    errors: [403, 404, 409],
  },
  listApiKeys: {
    method: 'get',
    path: '/api/keys',
    tag: 'Keys',
    summary: 'The caller’s API keys',
    ok: { 200: s.ApiKeyList },
  },
  createApiKey: {
    method: 'post',
    path: '/api/keys',
    tag: 'Keys',
    summary: 'Create an API key (the key is shown once)',
    body: s.CreateApiKeyRequest,
    ok: { 201: s.CreatedApiKey },
  },
  deleteApiKey: {
    method: 'delete',
    path: '/api/keys/{id}',
    tag: 'Keys',
    summary: 'Delete an API key',
    params: { id: s.ApiKeyId },
    ok: { 204: null },
    errors: [404],
  },
};

const ERRORS = {
  400: ['BadRequest', 'validation_error (with details) or invalid_session_id'],
  401: ['Unauthorized', 'unauthorized: no, invalid or expired token or API key'],
  403: ['Forbidden', 'forbidden: the caller can see it but their role may not do this'],
  404: ['NotFound', 'not_found (unknown or not visible; the same either way) or session_not_found'],
  409: ['Conflict', 'conflict, agent_not_running or session_busy'],
  410: ['Gone', 'session_expired: the transcript is gone from disk and from the archive'],
  413: [
    'PayloadTooLarge',
    'payload_too_large: body over 3 MiB, message over 100,000 or system_prompt over 50,000 characters',
  ],
  415: ['UnsupportedMediaType', 'unsupported_media_type: a body sent as anything but application/json'],
  422: ['IdempotencyKeyReused', 'idempotency_key_reused: the key was used with another agent or body'],
  429: ['TooManyRequests', 'rate_limited: the tenant’s request rate; retry after Retry-After seconds'],
  500: ['InternalError', 'internal: anything else; no detail is given'],
  431: ['HeadersTooLarge', 'headers_too_large: request headers over 16 KB'],
  503: ['ServiceUnavailable', 'not_ready: a dependency the operation needs is not available yet'],
} as const;

const HEADER_PARAMS = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    description:
      'Repeating a key (per user, 24 h) with the same agent and body answers with the first request’s ' +
      'execution; with another agent or body, 422. Other characters or lengths: 400.',
    schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
  },
  LastEventId: {
    name: 'Last-Event-ID',
    description: 'Resume after this seq (sent by EventSource on reconnect); takes precedence over `after`.',
    schema: { type: 'integer', minimum: 0 },
  },
  RequestId: {
    name: 'X-Request-Id',
    description: 'Correlates logs; used when it matches, else the server assigns one.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9-]{8,64}$' },
  },
} as const;
type HeaderParam = Exclude<keyof typeof HEADER_PARAMS, 'RequestId'>;

const REQUEST_ID_HEADER = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };

const jsonSchema = (schema: Schema, io: 'input' | 'output'): JsonSchema => {
  const named = Object.entries(NAMED).find(([, v]) => v === schema);
  if (named && io === 'output') return { $ref: `#/components/schemas/${named[0]}` };
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
};

const contentOf = (entries: Record<string, Schema | JsonSchema>) =>
  Object.fromEntries(
    Object.entries(entries).map(([type, schema]) => [
      type,
      { schema: '_zod' in schema ? jsonSchema(schema as Schema, 'output') : schema },
    ]),
  );

const OK_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

function okResponse(status: number, ok: Ok) {
  const base = { headers: REQUEST_ID_HEADER };
  if (ok === null) return { description: OK_TEXT[status], ...base };
  if ('_zod' in ok)
    return { description: OK_TEXT[status], ...base, content: contentOf({ 'application/json': ok }) };
  const content = ok.content ?? (ok.schema ? { 'application/json': ok.schema } : undefined);
  return { description: ok.description, ...base, ...(content ? { content: contentOf(content) } : {}) };
}

/** Query schemas are zod objects; each property becomes one `in: query` parameter. */
function queryParameters(query: Schema) {
  const json = jsonSchema(query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    schema,
  }));
}

function pathParameters(op: Operation) {
  return [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => {
    const schema = op.params?.[name] ?? DEFAULT_PARAMS[name];
    if (!schema) throw new Error(`${op.path}: no schema for path parameter ${name}`);
    return { name, in: 'path', required: true, schema: jsonSchema(schema, 'input') };
  });
}

function errorStatuses(op: Operation): number[] {
  const validated = op.body || op.query || /\{\w+\}/.test(op.path);
  return [
    ...(validated ? [400] : []),
    ...(op.public ? [] : [401]),
    ...(op.errors ?? []),
    ...(op.body ? [413, 415] : []),
    ...(op.headers?.includes('IdempotencyKey') ? [422] : []),
    ...(op.public ? [] : [429]),
    431,
    500,
  ].sort((a, b) => a - b);
}

function operationObject(operationId: string, op: Operation) {
  return {
    operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(op.public ? { security: [] } : {}),
    parameters: [
      ...pathParameters(op),
      ...(op.query ? queryParameters(op.query) : []),
      ...(op.headers ?? []).map((h) => ({ $ref: `#/components/parameters/${h}` })),
      { $ref: '#/components/parameters/RequestId' },
    ],
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(op.body, 'input') } },
          },
        }
      : {}),
    responses: Object.fromEntries([
      ...Object.entries(op.ok).map(([status, ok]) => [status, okResponse(Number(status), ok as Ok)]),
      ...errorStatuses(op).map((status) => [
        String(status),
        { $ref: `#/components/responses/${ERRORS[status as keyof typeof ERRORS][0]}` },
      ]),
    ]),
  };
}

/** Only the error responses some operation uses (an unused component is a lint warning). */
function errorResponses() {
  const used = new Set(Object.values(OPERATIONS).flatMap(errorStatuses).map(String));
  return Object.fromEntries(
    Object.entries(ERRORS)
      .filter(([status]) => used.has(status))
      .map(([status, [name, description]]) => [
        name,
        {
          description,
          headers: {
            ...REQUEST_ID_HEADER,
            ...(status === '429'
              ? {
                  'Retry-After': {
                    description: 'Seconds until the tenant may send again',
                    schema: { type: 'integer', minimum: 1 },
                  },
                }
              : {}),
          },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      ]),
  );
}

/** Options of the document's own: `servers` default to the origin serving it. */
export interface OpenApiOptions {
  readonly serverUrl?: string;
}

function buildDocument(version: string, options: OpenApiOptions) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [operationId, op] of Object.entries(OPERATIONS)) {
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, unknown>)[op.method] = operationObject(operationId, op);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reprise API',
      version,
      description:
        'AI coding agents for many tenants: run tasks on an agent, follow their events, and continue ' +
        'any finished execution as a chat. JSON in and out, snake_case fields. Unknown and forbidden ' +
        'resources answer the same 404.',
    },
    servers: [{ url: options.serverUrl ?? '/', description: 'The origin serving this document' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    security: [{ bearer: [] }, { apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A Cognito (or local dev IdP) access token',
        },
        apiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Api-Key',
          description: 'An API key from POST /api/keys',
        },
      },
      schemas: namedSchemas(),
      parameters: Object.fromEntries(
        Object.entries(HEADER_PARAMS).map(([key, p]) => [key, { in: 'header', required: false, ...p }]),
      ),
      headers: {
        RequestId: {
          description: 'The request id (the caller’s X-Request-Id when valid, else assigned)',
          schema: { type: 'string' },
        },
      },
      responses: errorResponses(),
    },
  };
}

/** The named schemas, each referring to the others by $ref (a zod registry does the linking). */
function namedSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(NAMED)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _, $id: __, ...rest }]) => [id, rest as JsonSchema]),
  );
}

const cache = new Map<string, unknown>();

export function openApiDocument(version: string, options: OpenApiOptions = {}): unknown {
  const key = `${version} ${options.serverUrl ?? ''}`;
  if (!cache.has(key)) cache.set(key, buildDocument(version, options));
  return cache.get(key);
}
