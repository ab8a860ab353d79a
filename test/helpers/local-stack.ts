import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Clock } from '@reprise/functions/core/ports';
import { silentLogger } from '@reprise/functions/lib/log';
import { afterAll, beforeAll, inject } from 'vitest';
import { type LocalStack, startLocalStack as start } from '../../infra/local/src/stack';

export type TestStack = LocalStack & { readonly dataDir: string };

export interface TestStackOptions {
  readonly dataDir?: string;
  readonly port?: number;
  readonly persist?: boolean;
  readonly seedFailedRun?: boolean;
  /** Share the integration run's DynamoDB Local (a fresh table) instead of starting another. */
  readonly dynamoEndpoint?: string;
  readonly lifecycleIntervalMs?: number;
  readonly agentCommand?: readonly string[];
  /** With dynamoEndpoint: this table instead of a fresh one (a restart onto the same data). */
  readonly tableName?: string;
  readonly clock?: Clock;
}

/** The whole local stack in this process, on a free port, with its data in a temp folder. */
export async function startLocalStack(options: TestStackOptions = {}): Promise<TestStack> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'rp-')));
  const stack = await start({
    dataDir,
    port: options.port ?? 0,
    persist: options.persist ?? false,
    webDist: resolve('web/dist'),
    logger: silentLogger,
    seedFailedRun: options.seedFailedRun ?? false,
    ...(options.lifecycleIntervalMs ? { lifecycleIntervalMs: options.lifecycleIntervalMs } : {}),
    ...(options.agentCommand ? { agentCommand: options.agentCommand } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.dynamoEndpoint
      ? {
          dynamoEndpoint: options.dynamoEndpoint,
          tableName:
            options.tableName ?? `stack-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
        }
      : {}),
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

/** A small JSON client for one user against a running stack. */
export async function clientFor(url: string, email: string) {
  const token = await devToken(url, email);
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: test bodies are asserted field by field
    const json: any = text ? JSON.parse(text) : null;
    return { status: res.status, body: json };
  };
  return { token, call };
}

export type Client = Awaited<ReturnType<typeof clientFor>>;

/**
 * The usual start of an integration file: its own stack on the run's DynamoDB Local and bob
 * signed in, handed to `use` once up; the stack stops after the file, also when sign-in failed.
 */
export function stackPerFile(use: (stack: TestStack, bob: Client) => void): void {
  let stack: TestStack | undefined;
  beforeAll(async () => {
    stack = await startLocalStack({ dynamoEndpoint: inject('dynamoEndpoint') });
    use(stack, await clientFor(stack.url, 'bob@acme.test'));
  });
  afterAll(() => stack?.stop());
}
