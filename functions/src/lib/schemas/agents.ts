import * as z from 'zod/mini';
import { AgentName, Email, Timestamp } from './common';

export const Runtime = z.enum(['claude', 'codex', 'gemini']);
export type Runtime = z.infer<typeof Runtime>;

export const AgentStatus = z.enum(['running', 'starting', 'stopped', 'failed']);
export type AgentStatus = z.infer<typeof AgentStatus>;

export const Agent = z.object({
  name: AgentName,
  runtime: Runtime,
  status: AgentStatus,
  owner: z.string(),
  shared_with: z.array(Email),
  created_at: Timestamp,
  idle_timeout_seconds: z.number(),
  max_concurrent_runs: z.number(),
  last_active_at: z.nullable(Timestamp),
});
export type Agent = z.infer<typeof Agent>;

export const AgentList = z.object({ items: z.array(Agent) });
export type AgentList = z.infer<typeof AgentList>;

/** 0 = never sleep, else 60..86400 seconds. */
export const IdleTimeoutSeconds = z.number().check(
  z.int(),
  z.refine((n) => n === 0 || (n >= 60 && n <= 86_400), 'must be 0 (never sleep) or 60..86400'),
);
export const MaxConcurrentRuns = z.number().check(z.int(), z.minimum(1), z.maximum(32));

export const AgentSettingsRequest = z.object({
  idle_timeout_seconds: z.optional(IdleTimeoutSeconds),
  max_concurrent_runs: z.optional(MaxConcurrentRuns),
});
export type AgentSettingsRequest = z.infer<typeof AgentSettingsRequest>;

export const CreateAgentRequest = z.object({
  name: AgentName,
  idle_timeout_seconds: z.optional(IdleTimeoutSeconds),
  max_concurrent_runs: z.optional(MaxConcurrentRuns),
  runtime: z.optional(Runtime),
  shared_with: z.optional(z.array(Email).check(z.maxLength(100))),
});
export type CreateAgentRequest = z.infer<typeof CreateAgentRequest>;

export const SharingRequest = z.object({ shared_with: z.array(Email).check(z.maxLength(100)) });
export type SharingRequest = z.infer<typeof SharingRequest>;
