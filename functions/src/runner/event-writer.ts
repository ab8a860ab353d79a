import type { EventSignal } from '../core/ports';
import type { EventStore, NewEvent } from '../data/stores/events';
import type { AgentEvent } from '../lib/agent-events';
import type { Logger } from '../lib/log';

const MAX_TEXT_CHUNK = 4000;

/**
 * Stores an execution's events in order with gap-free sequence numbers. A write starts as soon as
 * an event arrives; whatever arrives while it is in flight goes out in the next batch, so a slow
 * table batches more and an idle one adds no delay. Adjacent text deltas waiting in the queue are
 * merged, which keeps item counts down without delaying anything.
 */
export class EventWriter {
  private pending: NewEvent[] = [];
  private inflight: Promise<void> | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly signal: EventSignal,
    private readonly tenant: string,
    private readonly executionId: string,
    private readonly logger: Logger,
    private readonly now: () => number,
    /** The last sequence number already stored (the sweeper appends after a dead runner's events). */
    private seq = 0,
  ) {}

  push(event: AgentEvent): void {
    const last = this.pending.at(-1);
    if (event.type === 'text' && last?.type === 'text') {
      const text = String(last.data.text) + event.text;
      if (text.length <= MAX_TEXT_CHUNK) {
        this.pending[this.pending.length - 1] = { ...last, data: { type: 'text', text } };
        return;
      }
    }
    this.pending.push({
      seq: ++this.seq,
      type: event.type,
      data: event as unknown as Record<string, unknown>,
      created_at: new Date(this.now()).toISOString(),
    });
    if (!this.inflight) this.inflight = this.drain();
  }

  async flush(): Promise<void> {
    while (this.inflight) await this.inflight;
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, 25);
      try {
        await this.store.appendEvents(this.tenant, this.executionId, batch);
      } catch (e) {
        this.logger.error('event write failed', {
          execution_id: this.executionId,
          error: String(e).slice(0, 200),
        });
      }
      this.signal.notify(this.executionId);
    }
    this.inflight = null;
  }
}
