import { fireEvent, screen, waitFor } from '@solidjs/testing-library';
import { describe, expect, it } from 'vitest';
import { createFakeServer, json } from './fake-server';
import { agent } from './fixtures';
import { renderApp } from './render-app';

describe('create-agent form', () => {
  it('sends the chosen runtime and lists the new agent with it', async () => {
    const server = createFakeServer({
      'GET /api/agents': { items: [agent()] },
      'POST /api/agents': (call) => json(201, agent({ ...(call.body as object), status: 'stopped' })),
    });
    renderApp('/agents', server.fetch);
    fireEvent.input(await screen.findByTestId('create-agent-name'), { target: { value: 'cx' } });
    fireEvent.change(screen.getByTestId('create-agent-runtime'), { target: { value: 'codex' } });
    fireEvent.click(screen.getByTestId('create-agent-submit'));
    await waitFor(() => expect(screen.getAllByTestId('agent-row')).toHaveLength(2));
    const row = screen.getAllByTestId('agent-row').find((r) => r.getAttribute('data-agent') === 'cx');
    expect(row?.textContent).toContain('codex');
  });
});
