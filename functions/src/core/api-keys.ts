import { randomBytes } from 'node:crypto';
import { formatApiKey, hashSecret } from '../api/auth';
import { NotFoundError } from '../lib/errors';
import { ulid } from '../lib/ids';
import type { ApiKeySummary, CreatedApiKey } from '../lib/schemas/keys';
import type { CoreDeps } from './deps';
import { type Identity, isAdmin } from './identity';

/** The key is returned once; only its hash is kept. */
export async function createApiKey(deps: CoreDeps, who: Identity, name: string): Promise<CreatedApiKey> {
  const id = ulid(deps.clock.now());
  const secret = randomBytes(32).toString('base64url');
  await deps.stores.apiKeys.createApiKey({
    tenant: who.tenant,
    id,
    name,
    secret_hash: hashSecret(secret),
    user_id: who.user_id,
    email: who.email,
    role: who.role,
    created_at: new Date(deps.clock.now()).toISOString(),
  });
  return { id, name, key: formatApiKey(who.tenant, id, secret) };
}

export async function listApiKeys(deps: CoreDeps, who: Identity): Promise<ApiKeySummary[]> {
  const all = await deps.stores.apiKeys.listApiKeysByTenant(who.tenant);
  return all
    .filter((k) => isAdmin(who) || k.user_id === who.user_id)
    .map(({ id, name, created_at }) => ({ id, name, created_at }));
}

export async function deleteApiKey(deps: CoreDeps, who: Identity, id: string): Promise<void> {
  const deleted = await deps.stores.apiKeys.deleteApiKey(who.tenant, id, isAdmin(who) ? null : who.user_id);
  if (!deleted) throw new NotFoundError('API key');
}
