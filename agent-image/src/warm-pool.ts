import type { Logger } from '@reprise/functions/lib/log';
import type { WarmProcess } from './runtime';

export interface WarmPoolOptions {
  /** Most idle processes kept between turns; 0 turns the pool off (every turn cold). */
  size: number;
  /** An idle process exits after this long without a turn. */
  idleMs: number;
  logger: Logger;
  now?: () => number;
}

interface Entry {
  process: WarmProcess;
  /** The flags the process was started with (see `flagsKey`); a turn with others never uses it. */
  flags: string;
  lastUsed: number;
  timer: NodeJS.Timeout;
}

export interface WarmListing {
  session_id: string;
  pid: number | null;
  turns: number;
  idle_ms: number;
}

/**
 * Idle warm processes, keyed by the session id each will write next: the id its last turn
 * returned, which is the id the platform sends with the next turn. A process is in the pool only
 * between turns: `take` removes it for the turn, `put` returns it. Least recently used goes first.
 */
export class WarmPool {
  private readonly entries = new Map<string, Entry>();
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly options: WarmPoolOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.options.size;
  }

  /** The idle process for this session when its flags match; a mismatch stops the old one. */
  take(sessionId: string, flags: string): WarmProcess | null {
    const entry = this.entries.get(sessionId);
    if (!entry) return null;
    this.remove(sessionId, entry);
    if (entry.flags !== flags || !entry.process.alive) {
      const reason = entry.process.alive ? 'flags' : 'exited';
      this.options.logger.info('warm_replaced', { session_id: sessionId, reason });
      void entry.process.close();
      return null;
    }
    return entry.process;
  }

  /** Keeps a process after a turn; evicts the least recently used beyond the budget. */
  put(sessionId: string, flags: string, process: WarmProcess): void {
    if (this.closed || this.options.size === 0 || !process.alive) {
      void process.close();
      return;
    }
    const previous = this.entries.get(sessionId);
    if (previous && previous.process !== process) {
      this.remove(sessionId, previous);
      void previous.process.close();
    }
    while (this.entries.size >= this.options.size) {
      const [oldest, entry] = this.entries.entries().next().value as [string, Entry];
      this.remove(oldest, entry);
      this.options.logger.info('warm_evicted', { session_id: oldest, reason: 'budget' });
      void entry.process.close();
    }
    const timer = setTimeout(() => this.expire(sessionId, process), this.options.idleMs);
    timer.unref();
    const entry: Entry = { process, flags, lastUsed: this.now(), timer };
    this.entries.set(sessionId, entry);
    // A process that dies while idle (crash, OOM kill) simply leaves; the next turn goes cold.
    void process.exited.then(() => {
      if (this.entries.get(sessionId) === entry) this.remove(sessionId, entry);
    });
  }

  /** Stops the idle process of a session; false when there is none. */
  async drop(sessionId: string): Promise<boolean> {
    const entry = this.entries.get(sessionId);
    if (!entry) return false;
    this.remove(sessionId, entry);
    await entry.process.close();
    return true;
  }

  list(): WarmListing[] {
    const now = this.now();
    return [...this.entries].map(([sessionId, entry]) => ({
      session_id: sessionId,
      pid: entry.process.pid ?? null,
      turns: entry.process.turns,
      idle_ms: Math.max(0, now - entry.lastUsed),
    }));
  }

  /** Shutdown: refuses new entries and stops every idle process. */
  async close(): Promise<void> {
    this.closed = true;
    const entries = [...this.entries];
    for (const [sessionId, entry] of entries) this.remove(sessionId, entry);
    await Promise.all(entries.map(([, entry]) => entry.process.close()));
  }

  private expire(sessionId: string, process: WarmProcess): void {
    const entry = this.entries.get(sessionId);
    if (entry?.process !== process) return;
    this.remove(sessionId, entry);
    this.options.logger.info('warm_evicted', { session_id: sessionId, reason: 'idle' });
    void process.close();
  }

  private remove(sessionId: string, entry: Entry): void {
    clearTimeout(entry.timer);
    if (this.entries.get(sessionId) === entry) this.entries.delete(sessionId);
  }
}
