import * as z from 'zod/mini';
import { Timestamp } from './common';
import { ExecutionStatus } from './executions';

export const ChatSummary = z.object({
  id: z.string(),
  title: z.string(),
  head_session_id: z.nullable(z.string()),
  resumed_from_execution_id: z.nullable(z.string()),
  turns: z.number(),
  updated_at: Timestamp,
  owner_user_id: z.string(),
});
export type ChatSummary = z.infer<typeof ChatSummary>;

export const ChatList = z.object({ items: z.array(ChatSummary) });
export type ChatList = z.infer<typeof ChatList>;

export const ChatMessage = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  execution_id: z.string(),
  status: ExecutionStatus,
  created_at: Timestamp,
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ChatDetail = z.extend(ChatSummary, { agent: z.string(), messages: z.array(ChatMessage) });
export type ChatDetail = z.infer<typeof ChatDetail>;
