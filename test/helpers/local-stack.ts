import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { silentLogger } from '@reprise/functions/lib/log';
import { type LocalStack, startLocalStack as start } from '../../infra/local/src/stack';

export type { LocalStack };

/** The whole local stack in this process, on a free port, with its data in a temp folder. */
export async function startLocalStack(options: { dataDir?: string; port?: number; persist?: boolean } = {}) {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'rp-stack-')));
  const stack = await start({
    dataDir,
    port: options.port ?? 0,
    persist: options.persist ?? false,
    webDist: resolve('web/dist'),
    logger: silentLogger,
  });
  return { ...stack, dataDir };
}

export async function devToken(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/auth/dev/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (!res.ok) throw new Error(`dev token for ${email}: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
