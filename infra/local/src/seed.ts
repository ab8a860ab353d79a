import type { Db } from '@reprise/functions/data/client';
import { UserStore } from '@reprise/functions/data/stores/users';
import { SEED_TENANTS, SEED_USERS } from './seed-data';

/** Idempotent: a second start rewrites the same tenants and users and keeps everything else. */
export async function seedIdentities(db: Db): Promise<void> {
  const users = new UserStore(db);
  for (const tenant of SEED_TENANTS) await users.putTenant(tenant);
  for (const user of SEED_USERS) await users.putUser(user);
}
