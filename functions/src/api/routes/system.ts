import { Hono } from 'hono';
import { checkReadiness, type ReadinessCheck } from '../../core/readiness';
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
      return c.json(
        { status: report.ready ? 'ready' : 'not_ready', checks: report.checks },
        report.ready ? 200 : 503,
      );
    })
    .get('/openapi.json', (c) => c.json(openapi()));
}
