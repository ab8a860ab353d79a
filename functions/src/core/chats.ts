import type { ChatRecord } from '../data/stores/chats';
import { NotFoundError } from '../lib/errors';
import type { ChatDetail, ChatMessage, ChatSummary } from '../lib/schemas/chats';
import { canSeeChatOf, requireVisibleAgent } from './access';
import type { CoreDeps } from './deps';
import { type Identity, isAdmin } from './identity';

const toSummary = (c: ChatRecord): ChatSummary => ({
  id: c.id,
  title: c.title,
  head_session_id: c.head_session_id,
  resumed_from_execution_id: c.resumed_from_execution_id,
  turns: c.turns,
  updated_at: c.updated_at,
  owner_user_id: c.owner_user_id,
});

/** A user's own chats; admins see everyone's on the agent. */
export async function listChats(deps: CoreDeps, who: Identity, agentName: string): Promise<ChatSummary[]> {
  await requireVisibleAgent(deps.stores, who, agentName);
  const chats = await deps.stores.chats.listChats(who.tenant, agentName, isAdmin(who) ? null : who.user_id);
  return chats.map(toSummary);
}

export async function getChat(deps: CoreDeps, who: Identity, chatId: string): Promise<ChatDetail> {
  const found = await deps.stores.chats.getChatWithTurns(who.tenant, chatId);
  if (!found || !canSeeChatOf(who, found.chat.owner_user_id)) throw new NotFoundError('Chat');
  await requireVisibleAgent(deps.stores, who, found.chat.agent).catch(() => {
    throw new NotFoundError('Chat');
  });
  const executions = await deps.stores.executions.getExecutions(who.tenant, found.turns);
  const messages: ChatMessage[] = executions.flatMap((e) => {
    const user: ChatMessage = {
      role: 'user',
      content: e.message,
      execution_id: e.id,
      status: e.status,
      created_at: e.created_at,
    };
    const reply = e.response ?? (e.error ? '' : null);
    return reply === null
      ? [user]
      : [
          user,
          {
            role: 'assistant',
            content: reply,
            execution_id: e.id,
            status: e.status,
            created_at: e.finished_at ?? e.created_at,
          },
        ];
  });
  return { ...toSummary(found.chat), agent: found.chat.agent, messages };
}
