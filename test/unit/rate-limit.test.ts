import type { AppEnv } from '@reprise/functions/api/env';
import { renderError } from '@reprise/functions/api/errors';
import { rateLimit } from '@reprise/functions/api/middleware/rate-limit';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';

/** A clock the test moves by hand. */
const clock = {
  t: 1_000_000,
  now() {
    return this.t;
  },
};

function appFor(tenantOf: (req: Request) => string) {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('identity', {
      user_id: 'u',
      email: 'u@x.test',
      tenant: tenantOf(c.req.raw),
      role: 'operator',
      via: 'jwt',
    });
    await next();
  });
  app.use('*', rateLimit({ perSecond: 2, burst: 3 }, clock));
  app.get('/', (c) => c.text('ok'));
  app.onError(renderError);
  return app;
}

describe('per-tenant rate limit', () => {
  it('answers 429 rate_limited with Retry-After once a tenant spends its burst', async () => {
    const app = appFor(() => 'acme');
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await app.request('/')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await app.request('/');
    expect(await limited.json()).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    expect(limited.headers.get('retry-after')).toBe('1');
  });

  it('refills over time', async () => {
    const app = appFor(() => 'refill');
    for (let i = 0; i < 3; i++) await app.request('/');
    expect((await app.request('/')).status).toBe(429);
    clock.t += 500;
    expect((await app.request('/')).status).toBe(200);
  });

  it('keeps tenants apart: one tenant spending its burst does not limit another', async () => {
    const app = appFor((req) => new URL(req.url).searchParams.get('t') ?? '');
    for (let i = 0; i < 4; i++) await app.request('/?t=noisy');
    expect((await app.request('/?t=noisy')).status).toBe(429);
    expect((await app.request('/?t=quiet')).status).toBe(200);
  });
});
