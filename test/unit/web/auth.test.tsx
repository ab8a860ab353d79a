import { fireEvent, screen, waitFor } from '@solidjs/testing-library';
import { describe, expect, it } from 'vitest';
import { s256Challenge } from '~/auth/pkce';
import { resolveConfig } from '~/config';
import { apiError, createFakeServer, json } from './fake-server';
import { agent } from './fixtures';
import { renderApp } from './render-app';

describe('sign-in', () => {
  it('exchanges the email for a dev token, then sends it as a bearer token', async () => {
    const server = createFakeServer({
      'POST /auth/dev/token': () =>
        json(200, { access_token: 'jwt-bob', token_type: 'Bearer', expires_in: 3600 }),
      'GET /api/agents': { items: [agent()] },
    });
    const app = renderApp('/agents', server.fetch, { signedIn: false });
    await waitFor(() => expect(app.location()).toBe('/login?next=%2Fagents'));
    fireEvent.input(await screen.findByTestId('login-email'), { target: { value: 'bob@acme.test' } });
    fireEvent.click(screen.getByTestId('login-submit'));
    expect((await screen.findAllByTestId('agent-row')).length).toBe(1);
    expect(server.calls.find((c) => c.path === '/auth/dev/token')?.body).toEqual({ email: 'bob@acme.test' });
    expect(server.calls.find((c) => c.path === '/api/agents')?.headers.get('Authorization')).toBe(
      'Bearer jwt-bob',
    );
  });

  it('goes back to /login when the API answers 401', async () => {
    const server = createFakeServer({ 'GET /api/agents': () => apiError(401, 'unauthorized', 'expired') });
    const app = renderApp('/agents', server.fetch);
    await waitFor(() => expect(app.location()).toBe('/login?next=%2Fagents'));
    expect(app.tokens.get()).toBeNull();
    expect(await screen.findByTestId('login-email')).toBeTruthy();
  });

  it('computes the PKCE S256 challenge of RFC 7636 appendix B', async () => {
    expect(await s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('selects Cognito when /config.json carries its ids, else the dev provider on the same origin', () => {
    expect(resolveConfig({ apiUrl: '' }, null)).toEqual({ apiUrl: '', auth: { kind: 'dev' } });
    const cfg = resolveConfig(
      { apiUrl: '' },
      { apiUrl: 'https://api.example.com/', cognito: { domain: 'https://auth.example.com', clientId: 'c1' } },
    );
    expect(cfg.apiUrl).toBe('https://api.example.com');
    expect(cfg.auth).toMatchObject({ kind: 'cognito', clientId: 'c1', tokenUse: 'id' });
  });
});
