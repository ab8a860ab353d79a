import { mkdtemp } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createDevIdp, type DevIdentityProvider } from '../../infra/local/src/dev-idp';
import { SEED_USERS } from '../../infra/local/src/seed-data';

export interface IdpServer {
  readonly idp: DevIdentityProvider;
  readonly jwksUrl: string;
  readonly keyDir: string;
  /** Another issuer or audience signing with the same key: valid signature, wrong claims. */
  variant(overrides: { issuer?: string; audience?: string }): Promise<DevIdentityProvider>;
  close(): Promise<void>;
}

/** The dev identity provider behind a real HTTP server, so tokens are verified via a remote JWKS. */
export async function startIdpServer(): Promise<IdpServer> {
  const keyDir = await mkdtemp(join(tmpdir(), 'rp-idp-'));
  const host = new Hono();
  const server = serve({ fetch: host.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const make = (o: { issuer?: string; audience?: string } = {}) =>
    createDevIdp({
      keyDir,
      issuer: o.issuer ?? `${base}/auth/dev`,
      audience: o.audience ?? 'reprise-test',
      users: SEED_USERS,
    });
  const idp = await make();
  host.route('/auth/dev', idp.routes());
  return {
    idp,
    jwksUrl: `${base}${idp.jwksPath}`,
    keyDir,
    variant: make,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
