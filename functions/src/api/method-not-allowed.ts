import type { Hono } from 'hono';
import type { AppEnv } from './env';

type Matcher = { test: RegExp; method: string };

const patternOf = (path: string): RegExp =>
  new RegExp(
    `^${path
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}/?$`,
  );

/**
 * The methods the app serves on a path, from its own route table, so a known path asked with
 * another method is 405 with `Allow` (RFC 9110 §15.5.6) rather than a misleading 404.
 */
export function allowedMethods(app: Hono<AppEnv>): (path: string) => string[] {
  let matchers: Matcher[] | null = null;
  return (path) => {
    matchers ??= app.routes
      .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
      .map((r) => ({ test: patternOf(r.path), method: r.method }));
    const methods = new Set(matchers.filter((m) => m.test.test(path)).map((m) => m.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}
