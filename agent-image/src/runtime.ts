import type { AgentEvent, RunError, TerminalStatus, ToolCall } from '@reprise/functions/agent-events';
import { type CliExit, runCli } from './cli-process';

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

/** What every CLI runtime is configured with; each adds what only it needs. */
export interface CliOptions {
  bin: string;
  /** HOME for the CLI: its session files live below it (EFS in AWS). */
  home: string;
  /** Fixed cwd: the CLIs key their sessions by it, so it never changes for an agent. */
  workdir: string;
  /** The model endpoint (the scripted model); without it the CLI talks to its vendor. */
  baseUrl?: string;
  apiKey?: string;
  killGraceMs: number;
  maxRetries?: number;
  path?: string;
}

/** A runtime's reading of its CLI's stdout: events as lines arrive, one outcome at the exit. */
export interface LineParser {
  push(line: string): AgentEvent[];
  finish(exit: CliExit): RunOutcome;
}

/** One cold turn: the prompt on stdin, every stdout line through `parser`, its events to `io`. */
export const runParsedTurn = async (
  options: CliOptions,
  turn: { args: string[]; env: Record<string, string>; parser: LineParser },
  spec: RunSpec,
  io: RunIo,
): Promise<RunOutcome> => {
  const exit = await runCli({
    bin: options.bin,
    args: turn.args,
    cwd: options.workdir,
    env: turn.env,
    input: spec.prompt,
    signal: io.signal,
    killGraceMs: options.killGraceMs,
    onLine: (line) => {
      for (const event of turn.parser.push(line)) io.emit(event);
    },
  });
  return turn.parser.finish(exit);
};

/** A coding-agent CLI (claude, codex, gemini) behind one shape. */
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
