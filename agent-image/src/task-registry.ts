/** Why a run was stopped early; becomes the run's terminal status. */
export type StopReason = 'timeout' | 'cancelled';

interface Running {
  /** The session this run appends to; null for a fork, which only reads its source. */
  sessionId: string | null;
  controller: AbortController;
  done: Promise<void>;
  /** Its result is out; only the archive of its transcript is left. */
  reported: boolean;
}

/** Short exclusive use of a session's transcript file (restore and repair before a fork). */
export interface SessionLocks {
  tryLock(sessionId: string): boolean;
  unlock(sessionId: string): void;
}

/**
 * In-process bookkeeping of running turns: one writer per session (the platform's DynamoDB lease
 * is the cross-process guard; this catches two turns that reach the same agent anyway), and a
 * handle per execution id for cancel and shutdown.
 */
export class TaskRegistry implements SessionLocks {
  private readonly byExecution = new Map<string, Running>();
  private readonly busySessions = new Set<string>();

  /**
   * Registers a run and reserves the session it writes (none for a fork): 'running' when the
   * execution id is already running, 'busy' when another turn writes the session. A turn that
   * has reported its result and is only archiving hands the session on when its archive is
   * written: the next turn of a chat waits for that, it is not refused.
   */
  async acquire(
    executionId: string,
    sessionId: string | null,
  ): Promise<AbortController | 'running' | 'busy'> {
    for (;;) {
      if (this.byExecution.has(executionId)) return 'running';
      if (sessionId === null || this.tryLock(sessionId)) break;
      const holder = [...this.byExecution.values()].find((r) => r.sessionId === sessionId);
      if (!holder?.reported) return 'busy';
      await holder.done;
    }
    const controller = new AbortController();
    this.byExecution.set(executionId, { sessionId, controller, done: Promise.resolve(), reported: false });
    return controller;
  }

  /** The run's result is out: it can no longer be cancelled, and its session's next turn may queue. */
  reported(executionId: string): void {
    const entry = this.byExecution.get(executionId);
    if (entry) entry.reported = true;
  }

  tryLock(sessionId: string): boolean {
    if (this.busySessions.has(sessionId)) return false;
    this.busySessions.add(sessionId);
    return true;
  }

  unlock(sessionId: string): void {
    this.busySessions.delete(sessionId);
  }

  /** Tracks the run so shutdown can wait for it; releases the session when it settles. */
  track(executionId: string, run: Promise<unknown>): void {
    const entry = this.byExecution.get(executionId);
    if (!entry) return;
    entry.done = run.then(
      () => this.release(executionId),
      () => this.release(executionId),
    );
  }

  cancel(executionId: string, reason: StopReason = 'cancelled'): boolean {
    const entry = this.byExecution.get(executionId);
    if (!entry || entry.reported) return false;
    entry.controller.abort(reason);
    return true;
  }

  /** Cancels every run and resolves when all have settled (their results and archives written). */
  async cancelAll(): Promise<void> {
    const entries = [...this.byExecution.values()];
    for (const entry of entries) entry.controller.abort('cancelled');
    await Promise.all(entries.map((entry) => entry.done));
  }

  get size(): number {
    return this.byExecution.size;
  }

  private release(executionId: string): void {
    const entry = this.byExecution.get(executionId);
    if (!entry) return;
    this.byExecution.delete(executionId);
    if (entry.sessionId !== null) this.unlock(entry.sessionId);
  }
}
