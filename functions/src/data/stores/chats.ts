import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../client';
import { applied, recordOf, type TxWrite } from '../client';
import { keys } from '../keys';

export interface ChatRecord {
  readonly tenant: string;
  readonly id: string;
  readonly agent: string;
  readonly owner_user_id: string;
  readonly title: string;
  readonly head_session_id: string | null;
  readonly head_execution_id: string | null;
  readonly resumed_from_execution_id: string | null;
  readonly turns: number;
  readonly created_at: string;
  readonly updated_at: string;
}

const toRecord = (item: Record<string, unknown>) => recordOf<ChatRecord>(item);

const listKeys = (c: Pick<ChatRecord, 'tenant' | 'agent' | 'owner_user_id' | 'id'>, updatedAt: string) => ({
  gsi1pk: keys.chatsOfUser(c.tenant, c.agent, c.owner_user_id),
  gsi1sk: `${updatedAt}#${c.id}`,
  gsi2pk: keys.chatsOfAgent(c.tenant, c.agent),
  gsi2sk: `${updatedAt}#${c.id}`,
});

export class ChatStore {
  constructor(private readonly db: Db) {}

  /** The chat and its first turn: written together (with the run that is that turn). */
  createWrites(chat: ChatRecord, firstExecutionId: string): TxWrite[] {
    return [
      {
        Put: {
          TableName: this.db.table,
          Item: {
            ...keys.chat(chat.tenant, chat.id),
            type: 'chat',
            ...listKeys(chat, chat.updated_at),
            ...chat,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      { Put: { TableName: this.db.table, Item: this.turnItem(chat.tenant, chat.id, firstExecutionId) } },
    ];
  }

  /** One more turn on a chat: its entry and the chat's count and position in the lists. */
  addTurnWrites(chat: ChatRecord, executionId: string, at: string): TxWrite[] {
    return [
      { Put: { TableName: this.db.table, Item: this.turnItem(chat.tenant, chat.id, executionId) } },
      {
        Update: {
          TableName: this.db.table,
          Key: keys.chat(chat.tenant, chat.id),
          UpdateExpression: 'SET turns = turns + :one, updated_at = :at, gsi1sk = :s, gsi2sk = :s',
          ExpressionAttributeValues: { ':one': 1, ':at': at, ':s': `${at}#${chat.id}` },
        },
      },
    ];
  }

  private turnItem(tenant: string, chatId: string, executionId: string) {
    return { ...keys.chatTurn(tenant, chatId, executionId), type: 'chat_turn', execution_id: executionId };
  }

  /** Moves the head forward only: a slow earlier turn finishing late cannot rewind the chat. */
  async advanceHead(tenant: string, chatId: string, sessionId: string, executionId: string): Promise<void> {
    await applied(
      this.db.doc.send(
        new UpdateCommand({
          TableName: this.db.table,
          Key: keys.chat(tenant, chatId),
          UpdateExpression: 'SET head_session_id = :s, head_execution_id = :e',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(head_execution_id) OR head_execution_id = :null OR head_execution_id <= :e)',
          ExpressionAttributeValues: { ':s': sessionId, ':e': executionId, ':null': null },
        }),
      ),
    );
  }

  /** The chat alone (one GetItem): enough to check who owns it before appending a turn. */
  async getChat(tenant: string, chatId: string): Promise<ChatRecord | null> {
    const out = await this.db.doc.send(
      new GetCommand({ TableName: this.db.table, Key: keys.chat(tenant, chatId), ConsistentRead: true }),
    );
    return out.Item ? toRecord(out.Item) : null;
  }

  /** The chat with its turns' execution ids, oldest first; null when it does not exist. */
  async getChatWithTurns(
    tenant: string,
    chatId: string,
  ): Promise<{ chat: ChatRecord; turns: string[] } | null> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.db.doc.send(
        new QueryCommand({
          TableName: this.db.table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.chat(tenant, chatId).pk },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (start);
    const head = items.find((i) => i.sk === 'C');
    if (!head) return null;
    const turns = items.filter((i) => String(i.sk).startsWith('M#')).map((i) => String(i.execution_id));
    return { chat: toRecord(head), turns };
  }

  /** Newest first: one user's chats, or (admins) everyone's on the agent. */
  async listChats(tenant: string, agent: string, userId: string | null, limit = 50): Promise<ChatRecord[]> {
    const [index, attr, partition] = userId
      ? (['gsi1', 'gsi1pk', keys.chatsOfUser(tenant, agent, userId)] as const)
      : (['gsi2', 'gsi2pk', keys.chatsOfAgent(tenant, agent)] as const);
    const out = await this.db.doc.send(
      new QueryCommand({
        TableName: this.db.table,
        IndexName: index,
        KeyConditionExpression: `${attr} = :p`,
        ExpressionAttributeValues: { ':p': partition },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return (out.Items ?? []).map(toRecord);
  }
}
