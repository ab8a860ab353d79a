import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The first file under `dir` (any depth) whose name passes `match`, or null. Sync on purpose: a
 * Runtime's `transcriptPath` is synchronous, and codex and gemini put timestamps in their file
 * names, so a session's file can only be found by looking.
 */
export const findFile = (dir: string, match: (name: string) => boolean): string | null => {
  if (!existsSync(dir)) return null;
  const entries = readdirSync(dir, { withFileTypes: true });
  for (const entry of entries) {
    if (entry.isFile() && match(entry.name)) return join(dir, entry.name);
  }
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const found = findFile(join(dir, entry.name), match);
    if (found) return found;
  }
  return null;
};
