import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SESSION_ID_PATTERN } from '@reprise/functions/agent-events';

/**
 * The sessions this agent has ever written, kept in its HOME beside `.claude/`. It separates
 * "this transcript existed and is gone" (session_expired) from "never heard of it" (the CLI's own
 * session_not_found) once both the file and its archive copy are missing.
 */
export interface SessionLedger {
  add(sessionId: string): Promise<void>;
  has(sessionId: string): Promise<boolean>;
}

export const createFileLedger = (home: string): SessionLedger => {
  const dir = join(home, '.reprise', 'sessions');
  const fileOf = (sessionId: string) => {
    // Ids are validated at the edge; this guard keeps a path out of the file name regardless.
    if (!SESSION_ID_PATTERN.test(sessionId)) throw new Error('invalid session id');
    return join(dir, sessionId);
  };
  return {
    add: async (sessionId) => {
      await mkdir(dir, { recursive: true });
      await writeFile(fileOf(sessionId), '');
    },
    has: (sessionId) =>
      stat(fileOf(sessionId)).then(
        () => true,
        () => false,
      ),
  };
};
