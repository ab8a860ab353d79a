import type { AgentEvent, RunError, TerminalStatus, ToolCall } from '@reprise/functions/agent-events';

/** One turn as a runtime sees it; the prompt travels on stdin, never argv. */
export interface RunSpec {
  prompt: string;
  /** New sessions: the id the platform chose. Resumes: the id to resume. */
  sessionId: string;
  resume: boolean;
  forkSession: boolean;
  model?: string;
  allowedTools?: string[];
  systemPrompt?: string;
  maxTurns?: number;
}

export interface RunOutcome {
  status: TerminalStatus;
  /** The session this turn wrote — for a fork, the new id the CLI reported. */
  sessionId: string | null;
  response: string;
  error: RunError | null;
  costUsd: number | null;
  contextUsed: number | null;
  contextMax: number | null;
  numTurns: number | null;
  toolCalls: ToolCall[];
}

export interface RunIo {
  /** Aborted with reason `'timeout'` or `'cancelled'`; the runtime must kill everything it started. */
  signal: AbortSignal;
  emit(event: AgentEvent): void;
}

/** A coding-agent CLI (claude today; codex and gemini later) behind one shape. */
export interface Runtime {
  readonly name: string;
  /** Where the runtime keeps a session's transcript, so it can be archived, restored and repaired. */
  transcriptPath(sessionId: string): string;
  run(spec: RunSpec, io: RunIo): Promise<RunOutcome>;
}
