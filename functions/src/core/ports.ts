import type { AgentRecord } from '../data/stores/agents';
import type { ExecutionRecord } from '../data/stores/execution-record';

/** Hands an execution to the runner without waiting for it (in-process locally, async Lambda in AWS). */
export interface DispatchJob {
  readonly tenant: string;
  readonly execution_id: string;
  /** The record just written, so an in-process runner need not read it back; never sent remotely. */
  readonly execution?: ExecutionRecord;
  /** Its agent's item as the dispatcher just read it (where its server listens); never sent remotely. */
  readonly agent?: AgentRecord;
  /**
   * True when the dispatcher already gave this run a slot and marked it running: run it now.
   * Otherwise the job only says "something was queued": dispatch the agent's queue.
   */
  readonly claimed?: boolean;
  /**
   * With claimed, in-process only: the write that started the run also named its runner (a
   * dispatcher that delivers once needs no claim against retries). Never sent remotely.
   */
  readonly runner_claimed?: boolean;
  /** Dispatch this agent's queue without a run of its own (settings changed, wake, task started). */
  readonly agent_queue?: string;
  /** With agent_queue: start the agent even if nothing is queued (POST /wake). */
  readonly wake?: boolean;
  /**
   * The message exactly as the person sent it, when the stored one was redacted: the agent needs
   * the credential the record must not keep. Absent when both are the same.
   */
  readonly agent_message?: string;
}

export interface Dispatcher {
  dispatch(job: DispatchJob): Promise<void>;
  /** Every job reaches exactly one runner call (in-process): no retries, no second delivery. */
  readonly deliversOnce?: boolean;
}

/** The signal key for "this execution reached a terminal status" (events use the bare id). */
export const finishedKey = (executionId: string): string => `${executionId}#finished`;

export interface WaitOptions {
  readonly abort?: AbortSignal | undefined;
  /**
   * How long the caller has been waiting for news so far. A poller looks often while this is
   * short (a warm chat turn ends within a second or two) and less often after.
   */
  readonly waitedMs?: number;
}

/**
 * Wakes event readers when new events are stored. Locally an in-process emitter makes streaming
 * instant; in AWS readers fall back to polling the table, so `wait` may simply sleep.
 */
export interface EventSignal {
  notify(key: string): void;
  /** Resolves when `key` is notified, when `timeoutMs` is up, or when a poller should look again. */
  wait(key: string, timeoutMs: number, opts?: WaitOptions): Promise<void>;
}

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
