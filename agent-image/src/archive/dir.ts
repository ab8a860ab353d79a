import { copyFile, mkdir, rename, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { TranscriptArchive } from './archive';

/** Copy then rename, so neither side ever holds a half-written transcript. */
export const atomicCopy = async (from: string, to: string): Promise<void> => {
  await mkdir(dirname(to), { recursive: true });
  const temp = `${to}.${process.pid}.${Date.now()}.tmp`;
  await copyFile(from, temp);
  await rename(temp, to);
};

const exists = async (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );

export const createDirArchive = (dir: string): TranscriptArchive => {
  const fileOf = (sessionId: string) => join(dir, `${sessionId}.jsonl`);
  return {
    save: (sessionId, file) => atomicCopy(file, fileOf(sessionId)),
    restore: async (sessionId, file) => {
      if (!(await exists(fileOf(sessionId)))) return false;
      await atomicCopy(fileOf(sessionId), file);
      return true;
    },
    has: (sessionId) => exists(fileOf(sessionId)),
  };
};
