import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { NotFoundError } from '@reprise/functions/errors';
import { Hono } from 'hono';

const PLACEHOLDER =
  '<!doctype html><title>Reprise</title><p>The web app is not built yet: run <code>npm run build:web</code>.</p>';

/** Serves the built SPA with history-API fallback: any non-file path gets index.html. */
export function staticSite(distDir: string) {
  const app = new Hono();
  const root = relative(process.cwd(), distDir) || '.';
  if (existsSync(distDir)) app.use('/*', serveStatic({ root }));
  app.get('*', async (c) => {
    if (c.req.path.startsWith('/api/')) return c.json(new NotFoundError('Route').toBody(), 404);
    const index = join(distDir, 'index.html');
    if (!existsSync(index)) return c.html(PLACEHOLDER);
    return c.html(await readFile(index, 'utf8'));
  });
  return app;
}
