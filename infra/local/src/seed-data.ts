import type { Role } from '@reprise/functions/schemas';

export interface SeedUser {
  readonly user_id: string;
  readonly email: string;
  readonly tenant: string;
  readonly role: Role;
}

/** The logins docs/api.md promises on a fresh `npm start`. */
export const SEED_USERS: readonly SeedUser[] = [
  { user_id: 'usr-alice', email: 'alice@acme.test', tenant: 'acme', role: 'admin' },
  { user_id: 'usr-bob', email: 'bob@acme.test', tenant: 'acme', role: 'operator' },
  { user_id: 'usr-dana', email: 'dana@acme.test', tenant: 'acme', role: 'operator' },
  { user_id: 'usr-carol', email: 'carol@globex.test', tenant: 'globex', role: 'admin' },
];

export const SEED_TENANTS = [
  { tenant: 'acme', name: 'Acme Corp' },
  { tenant: 'globex', name: 'Globex' },
] as const;

export const SEED_AGENT = {
  tenant: 'acme',
  name: 'demo',
  owner: 'bob@acme.test',
  shared_with: ['dana@acme.test'],
};
