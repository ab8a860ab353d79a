import { createHash, timingSafeEqual } from 'node:crypto';
import { type JWTVerifyGetKey, errors as joseErrors, jwtVerify } from 'jose';
import type { Identity } from '../core/identity';
import type { ApiKeyStore } from '../data/stores/api-keys';
import type { AuthConfig } from '../lib/env';
import { UnauthorizedError } from '../lib/errors';

export interface Authenticator {
  fromBearer(token: string): Promise<Identity>;
  fromApiKey(key: string): Promise<Identity>;
}

/** Claims as Cognito puts them in ID tokens; the dev identity provider issues the same names. */
const TENANT_CLAIM = 'custom:tenant';
const GROUPS_CLAIM = 'cognito:groups';

/** `rpk_<tenant>_<id>_<secret>`: the tenant and id make the lookup one GetItem in the tenant's partition. */
const API_KEY_PATTERN = /^rpk_([a-z0-9-]{1,40})_([0-9A-HJKMNP-TV-Z]{26})_([A-Za-z0-9_-]{43})$/;

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export function formatApiKey(tenant: string, id: string, secret: string): string {
  return `rpk_${tenant}_${id}_${secret}`;
}

export function createAuthenticator(
  config: AuthConfig,
  jwks: JWTVerifyGetKey,
  apiKeys: ApiKeyStore,
): Authenticator {
  return {
    async fromBearer(token) {
      try {
        // Pinning algorithms rejects `alg: none` and HMAC-with-public-key confusion.
        const { payload } = await jwtVerify(token, jwks, {
          issuer: config.issuer,
          audience: config.audience,
          algorithms: ['RS256', 'ES256'],
          requiredClaims: ['sub', 'exp'],
        });
        const tenant = payload[TENANT_CLAIM];
        const email = payload.email;
        if (typeof tenant !== 'string' || typeof email !== 'string' || payload.token_use !== 'id') {
          throw new UnauthorizedError('Token lacks identity claims');
        }
        const groups = payload[GROUPS_CLAIM];
        const admin = Array.isArray(groups) && groups.includes('admin');
        return { user_id: payload.sub!, email, tenant, role: admin ? 'admin' : 'operator', via: 'jwt' };
      } catch (e) {
        if (e instanceof UnauthorizedError) throw e;
        if (e instanceof joseErrors.JOSEError) throw new UnauthorizedError('Invalid or expired token');
        throw e;
      }
    },

    async fromApiKey(key) {
      const match = API_KEY_PATTERN.exec(key);
      if (!match) throw new UnauthorizedError('Invalid API key');
      const [, tenant, id, secret] = match as unknown as [string, string, string, string];
      const record = await apiKeys.getApiKey(tenant, id);
      const expected = Buffer.from(record?.secret_hash ?? '0'.repeat(64), 'hex');
      const actual = Buffer.from(hashSecret(secret), 'hex');
      if (!record || !timingSafeEqual(expected, actual)) throw new UnauthorizedError('Invalid API key');
      return {
        user_id: record.user_id,
        email: record.email,
        tenant,
        role: record.role,
        via: 'api_key',
        api_key_id: id,
      };
    },
  };
}
