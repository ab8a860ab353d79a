import { createApp } from '@reprise/functions/api/app';
import { createAuthenticator, formatApiKey, hashSecret } from '@reprise/functions/api/auth';
import { ApiKeyStore } from '@reprise/functions/data/stores/api-keys';
import { ulid } from '@reprise/functions/lib/ids';
import { silentLogger } from '@reprise/functions/lib/log';
import { createLocalCron } from '@reprise/functions/scheduling/local-cron';
import { createRemoteJWKSet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalPlatform } from '../../infra/local/src/platform';
import { type IdpServer, startIdpServer } from '../helpers/idp-server';
import { createTestDb, type TestDb } from '../helpers/test-db';

let idp: IdpServer;
let db: TestDb;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  [idp, db] = await Promise.all([startIdpServer(), createTestDb()]);
  const auth = createAuthenticator(
    { issuer: idp.idp.issuer, audience: idp.idp.audience, jwksUrl: idp.jwksUrl },
    createRemoteJWKSet(new URL(idp.jwksUrl)),
    new ApiKeyStore(db),
  );
  const platform = createLocalPlatform({ db, dataDir: idp.keyDir, modelUrl: null, logger: silentLogger });
  app = createApp({ version: 'test', auth, core: platform.core, scheduler: createLocalCron(platform.core) });
});
afterAll(async () => {
  await Promise.all([idp.close(), db.drop()]);
});

const me = (headers: Record<string, string> = {}) => app.request('/api/me', { headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function expectUnauthorized(res: Response) {
  expect(res.status).toBe(401);
  const body = await res.json();
  expect(body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
}

describe('authentication', () => {
  it('maps a valid token to the caller identity', async () => {
    const res = await me(bearer(await idp.idp.issue('alice@acme.test')));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      user_id: 'usr-alice',
      email: 'alice@acme.test',
      tenant: 'acme',
      role: 'admin',
    });
  });

  it('gives operators the operator role', async () => {
    const res = await me(bearer(await idp.idp.issue('bob@acme.test')));
    expect(((await res.json()) as { role: string }).role).toBe('operator');
  });

  it('returns 401 without any credentials', async () => {
    await expectUnauthorized(await me());
  });

  it('returns 401 for an expired token', async () => {
    await expectUnauthorized(await me(bearer(await idp.idp.issue('alice@acme.test', -60))));
  });

  it('returns 401 for a token from another issuer', async () => {
    const other = await idp.variant({ issuer: 'https://evil.example/auth' });
    await expectUnauthorized(await me(bearer(await other.issue('alice@acme.test'))));
  });

  it('returns 401 for a token for another audience', async () => {
    const other = await idp.variant({ audience: 'someone-else' });
    await expectUnauthorized(await me(bearer(await other.issue('alice@acme.test'))));
  });

  it('returns 401 for an unsigned alg:none token', async () => {
    const valid = await idp.idp.issue('alice@acme.test');
    const payload = valid.split('.')[1];
    await expectUnauthorized(await me(bearer(`${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`)));
  });

  it('returns 401 for a token whose claims were tampered with', async () => {
    const [header, payload, signature] = (await idp.idp.issue('bob@acme.test')).split('.') as [
      string,
      string,
      string,
    ];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = b64({ ...claims, 'cognito:groups': ['admin'] });
    await expectUnauthorized(await me(bearer(`${header}.${forged}.${signature}`)));
  });

  it('returns 401 for a non-Bearer authorization scheme', async () => {
    await expectUnauthorized(await me({ authorization: 'Basic YWxpY2U6cHc=' }));
  });

  describe('API keys', () => {
    const secret = 'A'.repeat(43);
    const id = ulid();
    beforeAll(async () => {
      await new ApiKeyStore(db).createApiKey({
        tenant: 'acme',
        id,
        name: 'ci',
        secret_hash: hashSecret(secret),
        user_id: 'usr-bob',
        email: 'bob@acme.test',
        role: 'operator',
        created_at: new Date().toISOString(),
      });
    });

    it('acts as the key creator', async () => {
      const res = await me({ 'x-api-key': formatApiKey('acme', id, secret) });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ user_id: 'usr-bob', tenant: 'acme' });
    });

    it('returns 401 for a wrong secret', async () => {
      await expectUnauthorized(await me({ 'x-api-key': formatApiKey('acme', id, 'B'.repeat(43)) }));
    });

    it('returns 401 when the key names another tenant', async () => {
      await expectUnauthorized(await me({ 'x-api-key': formatApiKey('globex', id, secret) }));
    });
  });

  it('answers health without credentials', async () => {
    const res = await app.request('/api/health');
    expect(await res.json()).toEqual({ status: 'ok', version: 'test' });
  });
});
