import * as z from 'zod/mini';

/**
 * The events an agent server streams (NDJSON, one per line) for one task, ending with exactly one
 * `result`. The runner stores them as ExecutionEvents and the API serves them over SSE with the
 * same `type` names, so the browser, the runner and the agent image share this one definition.
 */
export const TerminalStatus = z.enum(['success', 'failed', 'cancelled', 'timeout']);
export type TerminalStatus = z.infer<typeof TerminalStatus>;

export const RunErrorCode = z.enum([
  'session_not_found',
  'session_expired',
  'session_busy',
  'model_error',
  'cli_failed',
  'timeout',
  'cancelled',
  'agent_not_running',
  'agent_unreachable',
  'lost',
  'internal',
  'agent_start_failed',
  // The platform itself stopped (shutdown, restart) while the run was in flight.
  'interrupted',
]);
export type RunErrorCode = z.infer<typeof RunErrorCode>;

export const RunError = z.object({ code: RunErrorCode, message: z.string() });
export type RunError = z.infer<typeof RunError>;

export const ToolCall = z.object({
  id: z.optional(z.string()),
  name: z.string(),
  input: z.unknown(),
  is_error: z.boolean(),
  output_preview: z.string(),
  duration_ms: z.optional(z.number()),
});
export type ToolCall = z.infer<typeof ToolCall>;

/** What a queued run waits for: its agent to wake, or a free run slot. */
export const WaitingFor = z.enum(['agent', 'capacity']);

/** `queued` (with `waiting_for`) is stored by the platform while a run waits; `running` comes from the agent. */
export const StatusEvent = z.object({
  type: z.literal('status'),
  status: z.enum(['running', 'queued']),
  session_id: z.nullable(z.string()),
  model: z.optional(z.string()),
  waiting_for: z.optional(z.nullable(WaitingFor)),
});
export const TextEvent = z.object({ type: z.literal('text'), text: z.string() });
export const ToolUseEvent = z.object({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});
export const ToolResultEvent = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  is_error: z.boolean(),
  output_preview: z.string(),
  duration_ms: z.optional(z.number()),
});
export const ResultEvent = z.object({
  type: z.literal('result'),
  status: TerminalStatus,
  session_id: z.nullable(z.string()),
  response: z.string(),
  error: z.nullable(RunError),
  cost_usd: z.nullable(z.number()),
  context_used: z.nullable(z.number()),
  context_max: z.nullable(z.number()),
  num_turns: z.nullable(z.number()),
  tool_calls: z.array(ToolCall),
  duration_ms: z.number(),
});
/** A non-fatal problem worth showing (a retry, a restored transcript). Never ends the stream. */
export const NoticeEvent = z.object({ type: z.literal('error'), code: z.string(), message: z.string() });

export const AgentEvent = z.discriminatedUnion('type', [
  StatusEvent,
  TextEvent,
  ToolUseEvent,
  ToolResultEvent,
  ResultEvent,
  NoticeEvent,
]);
export type AgentEvent = z.infer<typeof AgentEvent>;
export type ResultEvent = z.infer<typeof ResultEvent>;
export type AgentEventType = AgentEvent['type'];

/** Claude session ids are UUIDs, Codex thread ids are not: one shape covers every runtime. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
/** Placeholders an older platform stored instead of a real session id; never resumable. */
export const LEGACY_SESSION_SENTINELS: readonly string[] = ['dispatched', 'dispatched_async'];
/** The one shape check for a session id to resume, applied by the platform and the agent server. */
export const isWellFormedSessionId = (id: string): boolean =>
  SESSION_ID_PATTERN.test(id) && !LEGACY_SESSION_SENTINELS.includes(id);

/** The port the agent server listens on in its image (and that ECS maps and security groups open). */
export const AGENT_PORT = 8080;

/** The body the platform sends to an agent server's `POST /api/task`. */
export const AgentTaskRequest = z.object({
  execution_id: z.string().check(z.regex(SESSION_ID_PATTERN)),
  message: z.string().check(z.minLength(1), z.maxLength(100_000)),
  /** New sessions: the id the platform chose. Resumes: the id to resume. */
  session_id: z.string().check(z.regex(SESSION_ID_PATTERN)),
  resume: z.optional(z.boolean()),
  fork_session: z.optional(z.boolean()),
  model: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  allowed_tools: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(200)))),
  system_prompt: z.optional(z.string().check(z.maxLength(50_000))),
  timeout_seconds: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(3600))),
  max_turns: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(200))),
  /** False: no later turn will resume this one in place, so keep no warm process (default true). */
  keep_warm: z.optional(z.boolean()),
});
export type AgentTaskRequest = z.infer<typeof AgentTaskRequest>;

/** `GET /api/sessions/{id}` on an agent server. */
export const SessionState = z.object({ id: z.string(), state: z.enum(['present', 'archived', 'missing']) });
export type SessionState = z.infer<typeof SessionState>;
