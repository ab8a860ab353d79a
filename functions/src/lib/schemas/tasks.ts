import * as z from 'zod/mini';

export const MAX_MESSAGE_CHARS = 100_000;

export const TaskRequest = z.object({
  message: z.string().check(z.minLength(1), z.maxLength(MAX_MESSAGE_CHARS)),
  model: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  allowed_tools: z.optional(
    z.array(z.string().check(z.minLength(1), z.maxLength(200))).check(z.maxLength(100)),
  ),
  system_prompt: z.optional(z.string().check(z.maxLength(50_000))),
  timeout_seconds: z.optional(z.number().check(z.int(), z.minimum(10), z.maximum(840))),
  max_turns: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(200))),
  /** Shape is checked by the resume gate (400 invalid_session_id), not here. */
  resume_session_id: z.optional(z.string().check(z.maxLength(256))),
  fork_session: z.optional(z.boolean()),
  chat_session_id: z.optional(z.string().check(z.maxLength(64))),
  start_chat: z.optional(z.boolean()),
});
export type TaskRequest = z.infer<typeof TaskRequest>;

export const TaskQuery = z.object({
  wait: z.optional(z.coerce.number().check(z.int(), z.minimum(0), z.maximum(25))),
});

export const TaskAccepted = z.object({
  execution_id: z.string(),
  status: z.enum(['queued', 'running']),
  session_id: z.nullable(z.string()),
  chat_session_id: z.optional(z.string()),
  events_url: z.string(),
});
export type TaskAccepted = z.infer<typeof TaskAccepted>;
