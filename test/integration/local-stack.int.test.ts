import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/src/ports';
import { devToken, startLocalStack, type TestStack } from '../helpers/local-stack';

const javaPids = () =>
  execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes('DynamoDBLocal.jar'))
    .map((l) => Number(l.trim().split(/\s+/)[0]));

describe('the local stack', () => {
  let stack: TestStack | undefined;
  afterAll(() => stack?.stop());

  it('answers health, issues dev tokens and maps them to the seeded identity', async () => {
    stack = await startLocalStack({ persist: true, port: await freePort() });
    expect(await (await fetch(`${stack.url}/api/health`)).json()).toMatchObject({ status: 'ok' });
    const token = await devToken(stack.url, 'alice@acme.test');
    const me = await fetch(`${stack.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toEqual({
      user_id: 'usr-alice',
      email: 'alice@acme.test',
      tenant: 'acme',
      role: 'admin',
    });
  });

  it('refuses a dev token for an unknown user', async () => {
    const res = await fetch(`${stack!.url}/auth/dev/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'mallory@evil.test' }),
    });
    expect(res.status).toBe(401);
  });

  it('keeps its signing key and data across a restart and leaves no DynamoDB process behind', async () => {
    const before = javaPids();
    const token = await devToken(stack!.url, 'bob@acme.test');
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`${stack!.url}/api/agents`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'survivor' }),
    });
    expect(created.status).toBe(201);
    const { dataDir, url } = stack!;
    await stack!.stop();
    const after = javaPids();
    expect(after.length).toBe(before.length - 1);
    stack = await startLocalStack({ persist: true, dataDir, port: Number(new URL(url).port) });
    // The same key pair is reloaded from the data dir, so a token from the last run still verifies.
    const me = await fetch(`${stack.url}/api/me`, { headers: auth });
    expect(me.status).toBe(200);
    const agents = (await (await fetch(`${stack.url}/api/agents`, { headers: auth })).json()) as {
      items: { name: string }[];
    };
    expect(agents.items.map((a) => a.name).sort()).toEqual(['codex', 'demo', 'gemini', 'survivor']);
  });
});
