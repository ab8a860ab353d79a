import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  beginTurn,
  canAutoSelect,
  dismissBanner,
  enterResume,
  initialChatState,
  nextTaskRequest,
  turnAccepted,
  turnStopped,
} from '~/components/chat/chat-state';

const accepted = (session_id: string | null) => ({
  execution_id: 'e1',
  status: 'queued' as const,
  session_id,
  chat_session_id: 'c1',
  events_url: '',
});

describe('chat state rules', () => {
  it('keeps auto-select off after the banner is dismissed while a resume is pending', () => {
    const s = initialChatState();
    enterResume(s, { sessionId: 's0', executionId: 'x' });
    dismissBanner(s);
    expect(canAutoSelect(s)).toBe(false);
    expect(nextTaskRequest(s, 'q')).toEqual({
      message: 'q',
      resume_session_id: 's0',
      fork_session: true,
      start_chat: true,
    });
  });

  it('does not reuse the old head when a fork has not reported its session yet', () => {
    const s = initialChatState();
    enterResume(s, { sessionId: 's0', executionId: 'x' });
    beginTurn(s, 'q');
    turnAccepted(s, accepted(null));
    expect(s.headSessionId).toBeNull();
    applyEvent(s, { type: 'status', status: 'running', session_id: 's1' });
    expect(nextTaskRequest(s, 'next')).toEqual({
      message: 'next',
      resume_session_id: 's1',
      chat_session_id: 'c1',
    });
  });

  it('Stop keeps the turn in the log marked stopped, puts the draft back, and stays in the chat it created', () => {
    const s = initialChatState();
    beginTurn(s, 'first');
    turnAccepted(s, accepted('s1'));
    const chatId = s.chatId;
    turnStopped(s);
    expect(s.draft).toBe('first');
    expect(s.messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'done'],
      ['assistant', 'cancelled'],
    ]);
    expect(s.turn).toBeNull();
    // The session the stopped turn wrote may be incomplete: the next turn does not resume it.
    expect(nextTaskRequest(s, 'again')).toEqual({ message: 'again', chat_session_id: chatId });
  });
});
