import * as z from 'zod/mini';

/** Limits count characters (Unicode code points), not UTF-16 units: "😀" is one character. */
export const MAX_MESSAGE_CHARS = 100_000;
export const MAX_SYSTEM_PROMPT_CHARS = 50_000;
/**
 * The largest body a task may need: every allowed field at its limit with each character sent as
 * a JSON `\uXXXX\uXXXX` escape (12 bytes) is about 2.1 MB. Anything over this is 413 at the edge.
 */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

const codePoints = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** At most `max` characters, reported as zod's `too_big` so the edge answers 413 for long text. */
const maxChars = (max: number) =>
  z.superRefine<string>((s, ctx) => {
    // Cheap bounds first: UTF-16 length is between one and two units per code point.
    if (s.length <= max || (s.length <= 2 * max && codePoints(s) <= max)) return;
    ctx.addIssue({
      code: 'too_big',
      origin: 'string',
      maximum: max,
      inclusive: true,
      input: s,
      message: `Too long: at most ${max} characters`,
    });
  });

// NUL cannot cross a process boundary (argv, env) and no model or tool name contains one.
const noNul = z.refine<string>((s) => !s.includes('\0'), { message: 'Must not contain NUL characters' });

export const TaskRequest = z.object({
  message: z.string().check(
    z.minLength(1),
    maxChars(MAX_MESSAGE_CHARS),
    // An empty message is already reported by minLength; this catches spaces and newlines only.
    z.refine((s) => s.length === 0 || s.trim().length > 0, { message: 'Must not be only whitespace' }),
  ),
  model: z.optional(z.string().check(z.minLength(1), z.maxLength(200), noNul)),
  allowed_tools: z.optional(
    z.array(z.string().check(z.minLength(1), z.maxLength(200), noNul)).check(z.maxLength(100)),
  ),
  system_prompt: z.optional(z.string().check(maxChars(MAX_SYSTEM_PROMPT_CHARS), noNul)),
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

/** Printable ASCII without spaces, as the IETF Idempotency-Key draft's examples; anything else is 400. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export const TaskAccepted = z.object({
  execution_id: z.string(),
  status: z.enum(['queued', 'running']),
  session_id: z.nullable(z.string()),
  chat_session_id: z.optional(z.string()),
  events_url: z.string(),
});
export type TaskAccepted = z.infer<typeof TaskAccepted>;
