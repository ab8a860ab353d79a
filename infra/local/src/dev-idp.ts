import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UnauthorizedError, ValidationError } from '@reprise/functions/errors';
import { DevTokenRequest } from '@reprise/functions/schemas';
import { Hono } from 'hono';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import type { SeedUser } from './seed-data';

const TOKEN_TTL_SECONDS = 3600;
const ALG = 'ES256';

export interface DevIdentityProvider {
  readonly issuer: string;
  readonly audience: string;
  readonly jwksPath: string;
  issue(email: string, ttlSeconds?: number): Promise<string>;
  routes(): Hono;
}

/**
 * A local stand-in for Cognito: signs ID tokens with an ES256 key kept in the data directory and
 * publishes its JWKS, so the API verifies local tokens exactly as it verifies Cognito's.
 */
export async function createDevIdp(options: {
  keyDir: string;
  issuer: string;
  audience: string;
  users: readonly SeedUser[];
}): Promise<DevIdentityProvider> {
  const { privateJwk, publicJwk } = await loadOrCreateKey(options.keyDir);
  const privateKey = await importJWK(privateJwk, ALG);
  const byEmail = new Map(options.users.map((u) => [u.email, u]));

  const issue = async (email: string, ttlSeconds = TOKEN_TTL_SECONDS) => {
    const user = byEmail.get(email.toLowerCase());
    if (!user) throw new UnauthorizedError('Unknown user for the dev identity provider');
    return new SignJWT({
      email: user.email,
      'custom:tenant': user.tenant,
      'cognito:groups': user.role === 'admin' ? ['admin'] : [],
      token_use: 'id',
    })
      .setProtectedHeader({ alg: ALG, kid: publicJwk.kid! })
      .setSubject(user.user_id)
      .setIssuer(options.issuer)
      .setAudience(options.audience)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(privateKey);
  };

  return {
    issuer: options.issuer,
    audience: options.audience,
    jwksPath: '/auth/dev/jwks.json',
    issue,
    routes: () =>
      new Hono()
        .get('/jwks.json', (c) => c.json({ keys: [publicJwk] }))
        .post('/token', async (c) => {
          const parsed = DevTokenRequest.safeParse(await c.req.json().catch(() => null));
          if (!parsed.success) throw new ValidationError('Body must be {"email": "..."}');
          const token = await issue(parsed.data.email);
          return c.json({
            access_token: token,
            token_type: 'Bearer' as const,
            expires_in: TOKEN_TTL_SECONDS,
          });
        }),
  };
}

async function loadOrCreateKey(dir: string): Promise<{ privateJwk: JWK; publicJwk: JWK }> {
  const file = join(dir, 'dev-idp-key.json');
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
    const kid = `dev-${Date.now().toString(36)}`;
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALG };
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(file, JSON.stringify({ privateJwk, publicJwk }), { mode: 0o600 });
    return { privateJwk, publicJwk };
  }
}
