import * as z from 'zod/mini';

export const ErrorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.optional(z.array(z.unknown())) }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Role = z.enum(['admin', 'operator']);
export type Role = z.infer<typeof Role>;

export const Me = z.object({ user_id: z.string(), email: z.string(), tenant: z.string(), role: Role });
export type Me = z.infer<typeof Me>;

/** A member of the caller's tenant, so the SPA can show people rather than user ids. */
export const UserSummary = z.object({ user_id: z.string(), email: z.string(), role: Role });
export type UserSummary = z.infer<typeof UserSummary>;
export const UserList = z.object({ items: z.array(UserSummary) });
export type UserList = z.infer<typeof UserList>;

export const Health = z.object({ status: z.literal('ok'), version: z.string() });
export type Health = z.infer<typeof Health>;

/** GET /api/ready: 200 `ready` when storage and agents can serve runs, else 503 `not_ready` (error body, checks in details). */
export const Readiness = z.object({
  status: z.literal('ready'),
  checks: z.record(z.string(), z.enum(['ok', 'failing'])),
});
export type Readiness = z.infer<typeof Readiness>;

/** ULIDs: 26 Crockford base32 characters. */
export const Ulid = z.string().check(z.regex(/^[0-9A-HJKMNP-TV-Z]{26}$/));

export const AgentName = z.string().check(z.regex(/^[a-z][a-z0-9-]{1,38}$/));

export const Email = z.email();

export const Timestamp = z.iso.datetime();

export const Cursor = z.string().check(z.maxLength(2048));
