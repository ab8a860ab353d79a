import { createMiddleware } from 'hono/factory';
import type { Clock } from '../../core/ports';
import { AppError } from '../../lib/errors';
import type { AppEnv } from '../env';

export interface RateLimit {
  /** Requests a tenant may make per second, sustained. */
  readonly perSecond: number;
  /** Requests a tenant may make at once after being idle. */
  readonly burst: number;
}

/** Generous enough for a busy UI and CI scripts; one tenant cannot starve the others. */
export const DEFAULT_RATE_LIMIT: RateLimit = { perSecond: 50, burst: 200 };

/**
 * A token bucket per tenant, in this process. Each API Lambda instance keeps its own buckets, so
 * the effective limit scales with concurrency; API Gateway's stage throttling caps the total.
 */
export function rateLimit(limit: RateLimit, clock: Clock) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return createMiddleware<AppEnv>(async (c, next) => {
    const tenant = c.get('identity').tenant;
    const now = clock.now();
    const bucket = buckets.get(tenant) ?? { tokens: limit.burst, at: now };
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((now - bucket.at) / 1000) * limit.perSecond);
    bucket.at = now;
    buckets.set(tenant, bucket);
    if (bucket.tokens < 1) {
      c.header('retry-after', String(Math.ceil((1 - bucket.tokens) / limit.perSecond)));
      throw new AppError(429, 'rate_limited', 'Too many requests for this tenant; slow down and retry');
    }
    bucket.tokens -= 1;
    await next();
  });
}
