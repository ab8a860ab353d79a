import type { RunError, ToolCall } from '../../lib/agent-events';
import type { ExecutionSource, ExecutionStatus } from '../../lib/schemas/executions';

/** An execution as stored. The API view (with per-caller fields) is built in core/execution-view. */
export interface ExecutionRecord {
  readonly tenant: string;
  readonly id: string;
  readonly agent: string;
  readonly runtime: string;
  readonly source: ExecutionSource;
  status: ExecutionStatus;
  readonly message: string;
  readonly model: string | null;
  response: string | null;
  error: RunError | null;
  readonly owner_user_id: string;
  readonly triggered_by: { kind: string; id: string };
  claude_session_id: string | null;
  readonly resumed_session_id: string | null;
  readonly resumed_from_execution_id: string | null;
  readonly chat_session_id: string | null;
  readonly forked: boolean;
  cost_usd: number | null;
  context_used: number | null;
  context_max: number | null;
  num_turns: number | null;
  tool_calls: ToolCall[];
  readonly created_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  readonly schedule_id: string | null;
  readonly timeout_seconds: number;
  /** What the runner sends the agent server beyond the message. */
  readonly options: {
    readonly allowed_tools?: string[] | undefined;
    readonly system_prompt?: string | undefined;
    readonly max_turns?: number | undefined;
  };
  /** The session this run holds a lease on (the resumed one), released when it ends. */
  readonly lease_session_id: string | null;
  /** What a queued run waits for (lifecycle); meaningless once it runs. */
  waiting_for?: WaitingFor | null;
  /** How many queued status events were stored; the runner's events follow them. */
  queued_events?: number;
  /** When a runner took the run (Lambda may deliver a job twice: only one runner gets it). */
  readonly runner_at?: string;
  /** The agent was asleep at submit, so the resumed transcript is checked when the run starts. */
  readonly verify_session?: boolean;
}

export type WaitingFor = 'agent' | 'capacity';

export const TERMINAL_STATUSES: readonly ExecutionStatus[] = ['success', 'failed', 'cancelled', 'timeout'];
export const isTerminal = (status: ExecutionStatus): boolean => TERMINAL_STATUSES.includes(status);
