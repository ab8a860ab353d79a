import { mkdir, open, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Claude deletes transcripts older than this many days; 0 would disable writing them at all. */
export const CLEANUP_PERIOD_DAYS = 100_000;

export const fileExists = (file: string): Promise<boolean> =>
  stat(file).then(
    (s) => s.isFile(),
    () => false,
  );

/** Merges a huge `cleanupPeriodDays` into `$HOME/.claude/settings.json`, keeping every other setting. */
export const ensureClaudeSettings = async (home: string): Promise<void> => {
  const dir = join(home, '.claude');
  const file = join(dir, 'settings.json');
  await mkdir(dir, { recursive: true });
  let settings: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      settings = parsed as Record<string, unknown>;
  } catch {
    // Missing or unreadable: start from an empty object rather than refuse to run.
  }
  if (settings.cleanupPeriodDays === CLEANUP_PERIOD_DAYS) return;
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(
    temp,
    `${JSON.stringify({ ...settings, cleanupPeriodDays: CLEANUP_PERIOD_DAYS }, null, 2)}\n`,
  );
  await rename(temp, file);
};

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * A crash mid-write leaves a torn last line that breaks `--resume`. Drops it (or terminates a
 * complete last line that lost its newline) and reports whether the file changed.
 */
export const repairTornTail = async (file: string): Promise<boolean> => {
  const bytes = await readFile(file);
  if (bytes.length === 0) return false;
  const endsWithNewline = bytes[bytes.length - 1] === 0x0a;
  const body = endsWithNewline ? bytes.subarray(0, bytes.length - 1) : bytes;
  const lineStart = body.lastIndexOf(0x0a) + 1;
  const lastLine = body.subarray(lineStart).toString('utf8');
  if (isJson(lastLine)) {
    if (endsWithNewline) return false;
    await writeFile(file, '\n', { flag: 'a' });
    return true;
  }
  const handle = await open(file, 'r+');
  try {
    await handle.truncate(lineStart);
  } finally {
    await handle.close();
  }
  return true;
};
