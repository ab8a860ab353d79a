import type { Role, Runtime } from '@reprise/functions/schemas';

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

export interface SeedAgent {
  readonly tenant: string;
  readonly name: string;
  readonly runtime: Runtime;
  readonly owner: string;
  readonly shared_with: string[];
  /** The failed run a fresh data dir starts with, ready for Continue as Chat. */
  readonly failedRun: { readonly message: string; readonly max_turns?: number };
}

/** claude's failed run is cut off by max_turns; codex and gemini have no turn limit, so their model fails after the command. */
export const SEED_AGENTS: readonly SeedAgent[] = [
  {
    tenant: 'acme',
    name: 'demo',
    runtime: 'claude',
    owner: 'bob@acme.test',
    shared_with: ['dana@acme.test'],
    failedRun: { message: 'run: ls /nonexistent', max_turns: 1 },
  },
  ...(['codex', 'gemini'] as const).map((runtime) => ({
    tenant: 'acme',
    name: runtime,
    runtime,
    owner: 'bob@acme.test',
    shared_with: ['dana@acme.test'],
    failedRun: { message: 'run: ls /nonexistent\nfail-after-run: 400' },
  })),
];
