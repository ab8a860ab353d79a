import type { Logger } from '@reprise/functions/lib/log';
import type { TranscriptArchive } from './archive/archive';
import type { Runtime } from './runtime';
import type { SessionLedger } from './session-ledger';
import type { SessionLocks } from './task-registry';
import { fileExists, repairTornTail } from './transcripts';

export interface PrepDeps {
  runtime: Runtime;
  archive: TranscriptArchive;
  ledger: SessionLedger;
  locks?: SessionLocks;
}

type Notice = (code: string, message: string) => void;

/**
 * Makes a transcript resumable: restore it from the archive when it vanished, drop a torn last
 * line. 'expired' when this agent wrote the session once and both copies are gone; an id it never
 * wrote is left to the CLI, which answers "No conversation found".
 */
const prepare = async (deps: PrepDeps, sessionId: string, notice: Notice, log: Logger) => {
  const file = deps.runtime.transcriptPath(sessionId);
  if (!(await fileExists(file))) {
    if (await deps.archive.restore(sessionId, file)) {
      log.warn('transcript_restored');
      notice('transcript_restored', 'The session transcript was restored from the archive');
    } else if (await deps.ledger.has(sessionId)) {
      return 'expired' as const;
    }
  }
  if ((await fileExists(file)) && (await repairTornTail(file))) {
    log.warn('transcript_repaired');
    notice('transcript_repaired', 'A torn last line of the transcript was removed');
  }
  return 'ready' as const;
};

/**
 * A plain resume already holds the session for its whole run. A fork only reads its source, so
 * many forks may run at once; it takes the session just while it repairs the file — and skips the
 * repair when a writer is appending right now, because a line being written looks torn.
 */
export const prepareTranscript = async (
  deps: PrepDeps,
  sessionId: string,
  fork: boolean,
  notice: Notice,
  log: Logger,
): Promise<'ready' | 'expired'> => {
  if (!fork || !deps.locks) return prepare(deps, sessionId, notice, log);
  if (!deps.locks.tryLock(sessionId)) return 'ready';
  try {
    return await prepare(deps, sessionId, notice, log);
  } finally {
    deps.locks.unlock(sessionId);
  }
};
