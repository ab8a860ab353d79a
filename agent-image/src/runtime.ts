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
  /** False when no later turn will resume this one in place: a warm runtime runs it cold. */
  keepWarm?: boolean;
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
  /** Present when the CLI can keep a session open between turns (see warm-runtime.ts). */
  startWarm?: WarmCapable['startWarm'];
}

/** What a warm turn produced; `delivered` is false when the process died before reading it. */
export interface WarmTurn {
  outcome: RunOutcome;
  delivered: boolean;
}

/**
 * A CLI process that keeps its session open and takes one turn after another (claude's
 * stream-json input). It serves one turn at a time; an aborted turn kills the process.
 */
export interface WarmProcess {
  readonly pid: number | undefined;
  readonly alive: boolean;
  /** Turns this process has been given, the first one included. */
  readonly turns: number;
  turn(prompt: string, io: RunIo): Promise<WarmTurn>;
  /** Stops the whole process group; resolves once it has exited. */
  close(): Promise<void>;
  /** Resolves when the process exits for any reason. */
  readonly exited: Promise<void>;
}

/**
 * Optional capability of a Runtime: start a process for `spec` (new session, resume or fork, as
 * `run` would) that stays alive after its first turn. Runtimes without it keep the cold path.
 */
export interface WarmCapable {
  startWarm(spec: RunSpec): WarmProcess;
}
