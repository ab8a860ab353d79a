import { Hono } from 'hono';
import type { AppEnv } from '../env';

/** Unauthenticated: health for load balancers, and the contract for clients. */
export function systemRoutes(version: string, openapi: () => unknown) {
  return new Hono<AppEnv>()
    .get('/health', (c) => c.json({ status: 'ok' as const, version }))
    .get('/openapi.json', (c) => c.json(openapi()));
}
