import { screen, waitFor } from '@solidjs/testing-library';
import { describe, expect, it } from 'vitest';
import { createFakeServer } from './fake-server';
import { agent, chatDetail, chatSummary, execution } from './fixtures';
import { renderApp } from './render-app';

describe('chat links', () => {
  it('opens the chat named by ?chatId= (the execution page links chats this way)', async () => {
    const server = createFakeServer({
      'GET /api/agents/demo': agent(),
      'GET /api/agents/demo/chats': { items: [] },
      'GET /api/chats/chat-old': chatDetail(),
    });
    renderApp('/agents/demo?tab=chat&chatId=chat-old', server.fetch);
    expect(await screen.findByText('hello from before')).toBeTruthy();
    expect(screen.queryByTestId('resume-banner')).toBeNull();
  });

  it('lets a deep link that arrives while an auto-selected chat is still loading win', async () => {
    let releaseChat: () => void = () => {};
    const server = createFakeServer({
      'GET /api/agents/demo': agent(),
      'GET /api/agents/demo/chats': { items: [chatSummary()] },
      'GET /api/executions/:id': execution(),
      'GET /api/chats/chat-old': () =>
        new Promise((resolve) => {
          releaseChat = () => resolve(chatDetail());
        }),
    });
    const app = renderApp('/agents/demo?tab=chat', server.fetch);
    await waitFor(() => expect(server.called('GET', '/api/chats/chat-old')).toBe(true));
    app.go('/agents/demo?tab=chat&resumeSessionId=sess-exec-1&executionId=01JEXEC0000000000000000001');
    await screen.findByTestId('resume-banner');
    releaseChat();
    // The fake answers from memory, so one macrotask turn lets the whole late answer settle.
    await new Promise<void>((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByText('hello from before')).toBeNull();
    expect(screen.getByTestId('resume-banner')).toBeTruthy();
  });
});
