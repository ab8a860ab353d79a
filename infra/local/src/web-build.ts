import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Rebuilds the SPA only when a source file is newer than the last build. */
export async function buildWebIfStale(webDir: string, progress: (s: string) => void): Promise<void> {
  const index = join(webDir, 'dist', 'index.html');
  if (!existsSync(join(webDir, 'index.html'))) return;
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  if (built > newest(join(webDir, 'src')) && built > statSync(join(webDir, 'index.html')).mtimeMs) return;
  progress('building the web app');
  const { build } = await import('vite');
  await build({ root: webDir, logLevel: 'warn', configFile: join(webDir, 'vite.config.ts') });
}

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}
