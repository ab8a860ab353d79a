import * as z from 'zod/mini';
import * as s from '../lib/schemas/index';

type Op = {
  summary: string;
  body?: z.ZodMiniType;
  query?: z.ZodMiniType;
  response?: z.ZodMiniType;
  status?: number;
};

/** The contract as data: every route with the same zod schemas that validate it. */
const ROUTES: Record<string, Record<string, Op>> = {
  '/api/health': { get: { summary: 'Health', response: s.Health } },
  '/api/me': { get: { summary: 'The caller', response: s.Me } },
  '/api/users': { get: { summary: "Members of the caller's tenant", response: s.UserList } },
  '/api/agents': {
    get: { summary: 'Agents the caller can see', response: s.AgentList },
    post: { summary: 'Create an agent', body: s.CreateAgentRequest, response: s.Agent, status: 201 },
  },
  '/api/agents/{name}': {
    get: { summary: 'One agent', response: s.Agent },
    delete: { summary: 'Delete an agent', status: 204 },
  },
  '/api/agents/{name}/start': { post: { summary: 'Start the agent', response: s.Agent, status: 202 } },
  '/api/agents/{name}/stop': { post: { summary: 'Stop the agent', response: s.Agent, status: 202 } },
  '/api/agents/{name}/sharing': {
    put: { summary: 'Share the agent', body: s.SharingRequest, response: s.Agent },
  },
  '/api/agents/{name}/task': {
    post: {
      summary: 'Run a task or chat turn',
      body: s.TaskRequest,
      query: s.TaskQuery,
      response: s.TaskAccepted,
      status: 202,
    },
  },
  '/api/agents/{name}/executions': {
    get: { summary: 'Executions, newest first', query: s.ExecutionListQuery, response: s.ExecutionList },
  },
  '/api/agents/{name}/chats': { get: { summary: 'Chats on the agent', response: s.ChatList } },
  '/api/executions/{id}': { get: { summary: 'One execution', response: s.Execution } },
  '/api/executions/{id}/events': {
    get: { summary: 'Events (SSE, or JSON with format=json)', query: s.EventsQuery, response: s.EventsPage },
  },
  '/api/executions/{id}/cancel': { post: { summary: 'Cancel a run', status: 202 } },
  '/api/chats/{id}': { get: { summary: 'A chat with its messages', response: s.ChatDetail } },
  '/api/agents/{name}/schedules': {
    get: { summary: 'Schedules of the agent', response: s.ScheduleList },
    post: { summary: 'Create a schedule', body: s.ScheduleInput, response: s.Schedule, status: 201 },
  },
  '/api/schedules/{id}': {
    get: { summary: 'One schedule', response: s.Schedule },
    put: { summary: 'Update a schedule', body: s.ScheduleInput, response: s.Schedule },
    delete: { summary: 'Delete a schedule', status: 204 },
  },
  '/api/schedules/{id}/run': {
    post: { summary: 'Run a schedule now', response: s.TaskAccepted, status: 202 },
  },
  '/api/keys': {
    get: { summary: 'API keys', response: s.ApiKeyList },
    post: {
      summary: 'Create an API key (shown once)',
      body: s.CreateApiKeyRequest,
      response: s.CreatedApiKey,
      status: 201,
    },
  },
  '/api/keys/{id}': { delete: { summary: 'Delete an API key', status: 204 } },
};

const json = (schema: z.ZodMiniType) => ({
  'application/json': { schema: z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) },
});

let cached: unknown;

export function openApiDocument(version: string): unknown {
  cached ??= {
    openapi: '3.1.0',
    info: { title: 'Reprise API', version },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
      },
      schemas: { Error: z.toJSONSchema(s.ErrorBody) },
    },
    security: [{ bearer: [] }, { apiKey: [] }],
    paths: Object.fromEntries(
      Object.entries(ROUTES).map(([path, ops]) => [
        path,
        Object.fromEntries(
          Object.entries(ops).map(([method, op]) => [
            method,
            {
              summary: op.summary,
              parameters: [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
                name: m[1],
                in: 'path',
                required: true,
                schema: { type: 'string' },
              })),
              ...(op.body ? { requestBody: { required: true, content: json(op.body) } } : {}),
              responses: {
                [String(op.status ?? 200)]: {
                  description: 'OK',
                  ...(op.response ? { content: json(op.response) } : {}),
                },
                default: {
                  description: 'Error',
                  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
                },
              },
            },
          ]),
        ),
      ]),
    ),
  };
  return cached;
}
