import * as z from 'zod/mini';
import { WaitingFor } from '../agent-events';
import { Cursor, Timestamp } from './common';

export const ExecutionStatus = z.enum(['queued', 'running', 'success', 'failed', 'cancelled', 'timeout']);
export type ExecutionStatus = z.infer<typeof ExecutionStatus>;

export const ExecutionSource = z.enum(['manual', 'chat', 'schedule', 'api', 'agent']);
export type ExecutionSource = z.infer<typeof ExecutionSource>;

export const ExecutionError = z.object({ code: z.string(), message: z.string() });

export const ToolCallView = z.object({
  name: z.string(),
  input: z.unknown(),
  is_error: z.boolean(),
  output_preview: z.string(),
});

export const ExecutionSummary = z.object({
  id: z.string(),
  agent: z.string(),
  source: ExecutionSource,
  status: ExecutionStatus,
  message: z.string(),
  owner_user_id: z.string(),
  claude_session_id: z.nullable(z.string()),
  schedule_id: z.nullable(z.string()),
  chat_session_id: z.nullable(z.string()),
  created_at: Timestamp,
  duration_ms: z.nullable(z.number()),
  cost_usd: z.nullable(z.number()),
  error_code: z.nullable(z.string()),
  waiting_for: z.nullable(WaitingFor),
});
export type ExecutionSummary = z.infer<typeof ExecutionSummary>;

export const ExecutionList = z.object({
  items: z.array(ExecutionSummary),
  next_cursor: z.nullable(z.string()),
});
export type ExecutionList = z.infer<typeof ExecutionList>;

export const ExecutionListQuery = z.object({
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100))),
  cursor: z.optional(Cursor),
  status: z.optional(ExecutionStatus),
  source: z.optional(ExecutionSource),
  owner_user_id: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
});

export const Execution = z.object({
  id: z.string(),
  agent: z.string(),
  runtime: z.string(),
  source: ExecutionSource,
  status: ExecutionStatus,
  message: z.string(),
  model: z.nullable(z.string()),
  response: z.nullable(z.string()),
  error: z.nullable(ExecutionError),
  owner_user_id: z.string(),
  triggered_by: z.object({ kind: z.string(), id: z.string() }),
  claude_session_id: z.nullable(z.string()),
  resumed_session_id: z.nullable(z.string()),
  resumed_from_execution_id: z.nullable(z.string()),
  chat_session_id: z.nullable(z.string()),
  forked: z.boolean(),
  cost_usd: z.nullable(z.number()),
  context_used: z.nullable(z.number()),
  context_max: z.nullable(z.number()),
  num_turns: z.nullable(z.number()),
  tool_calls: z.array(ToolCallView),
  created_at: Timestamp,
  started_at: z.nullable(Timestamp),
  finished_at: z.nullable(Timestamp),
  duration_ms: z.nullable(z.number()),
  schedule_id: z.nullable(z.string()),
  can_continue_as_chat: z.boolean(),
  continued_in: z.array(z.object({ chat_session_id: z.string(), created_at: Timestamp })),
  /** What a queued run waits for: its agent to wake, or a free run slot; null once it runs. */
  waiting_for: z.nullable(WaitingFor),
});
export type Execution = z.infer<typeof Execution>;

/** `POST /api/executions/{id}/cancel` → 202. */
export const CancelAccepted = z.object({ execution_id: z.string(), status: ExecutionStatus });
export type CancelAccepted = z.infer<typeof CancelAccepted>;

export const EventType = z.enum(['status', 'text', 'tool_use', 'tool_result', 'result', 'error']);
export type EventType = z.infer<typeof EventType>;

/** One stored event as the API serves it; `data` is the agent event (see agent-events.ts). */
export const ExecutionEvent = z.object({
  seq: z.number(),
  type: EventType,
  data: z.record(z.string(), z.unknown()),
  created_at: Timestamp,
});
export type ExecutionEvent = z.infer<typeof ExecutionEvent>;

export const EventsQuery = z.object({
  after: z.optional(z.coerce.number().check(z.int(), z.minimum(0))),
  format: z.optional(z.enum(['json', 'sse'])),
  wait: z.optional(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(20))),
});

export const EventsPage = z.object({ events: z.array(ExecutionEvent), done: z.boolean() });
export type EventsPage = z.infer<typeof EventsPage>;
