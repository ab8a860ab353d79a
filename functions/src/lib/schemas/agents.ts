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
});
export type Agent = z.infer<typeof Agent>;

export const AgentList = z.object({ items: z.array(Agent) });
export type AgentList = z.infer<typeof AgentList>;

export const CreateAgentRequest = z.object({
  name: AgentName,
  runtime: z.optional(Runtime),
  shared_with: z.optional(z.array(Email).check(z.maxLength(100))),
});
export type CreateAgentRequest = z.infer<typeof CreateAgentRequest>;

export const SharingRequest = z.object({ shared_with: z.array(Email).check(z.maxLength(100)) });
export type SharingRequest = z.infer<typeof SharingRequest>;
