/**
 * Durable copies of session transcripts (S3 in AWS, a local folder otherwise), so a transcript
 * that vanished from the agent's HOME can be restored before `--resume`.
 */
export interface TranscriptArchive {
  save(sessionId: string, file: string): Promise<void>;
  /** Copies the archived transcript to `file`; false when the archive has none. */
  restore(sessionId: string, file: string): Promise<boolean>;
  has(sessionId: string): Promise<boolean>;
}
