/** Why a run was stopped early; becomes the run's terminal status. */
export type StopReason = 'timeout' | 'cancelled';

interface Running {
  sessionId: string;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * In-process bookkeeping of running turns: one writer per session (the platform's DynamoDB lease
 * is the cross-process guard; this catches two turns that reach the same agent anyway), and a
 * handle per execution id for cancel and shutdown.
 */
export class TaskRegistry {
  private readonly byExecution = new Map<string, Running>();
  private readonly busySessions = new Set<string>();

  /** Reserves the session for this execution, or returns null when another turn holds it. */
  acquire(executionId: string, sessionId: string): AbortController | null {
    if (this.busySessions.has(sessionId) || this.byExecution.has(executionId)) return null;
    const controller = new AbortController();
    this.busySessions.add(sessionId);
    this.byExecution.set(executionId, { sessionId, controller, done: Promise.resolve() });
    return controller;
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
    if (!entry) return false;
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
    this.busySessions.delete(entry.sessionId);
  }
}
