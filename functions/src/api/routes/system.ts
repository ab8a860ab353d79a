import { Hono } from 'hono';
import { checkReadiness, type ReadinessCheck } from '../../core/readiness';
import { AppError } from '../../lib/errors';
import type { AppEnv } from '../env';

/**
 * Unauthenticated: liveness (`/health`: the process answers), readiness (`/ready`: it can serve
 * runs — storage and agents reachable) for load balancers and `npm start`, and the contract.
 */
export function systemRoutes(version: string, openapi: () => unknown, ready: Record<string, ReadinessCheck>) {
  return new Hono<AppEnv>()
    .get('/health', (c) => c.json({ status: 'ok' as const, version }))
    .get('/ready', async (c) => {
      const report = await checkReadiness(ready);
      c.header('cache-control', 'no-store');
      // Every non-2xx body has the error shape (the contract); the failing checks go in details.
      if (!report.ready) {
        const failing = Object.keys(report.checks).filter((name) => report.checks[name] !== 'ok');
        throw new AppError(503, 'not_ready', `Not ready yet: ${failing.join(', ')}`, [report.checks]);
      }
      return c.json({ status: 'ready' as const, checks: report.checks });
    })
    .get('/openapi.json', (c) => c.json(openapi()));
}
