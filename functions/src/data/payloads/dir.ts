import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { assertSafeKey, type PayloadStore } from './payload-store';

/** The local stand-in for the S3 bucket: one file per key under `root` (e.g. `.reprise/payloads`). */
export function dirPayloadStore(root: string): PayloadStore {
  return {
    async put(key, body) {
      assertSafeKey(key);
      const file = join(root, key);
      await mkdir(dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a payload.
      const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temp, body, 'utf8');
      await rename(temp, file);
    },
    async get(key) {
      assertSafeKey(key);
      return readFile(join(root, key), 'utf8');
    },
  };
}
