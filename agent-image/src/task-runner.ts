import type { AgentEvent, AgentTaskRequest, ResultEvent } from '@reprise/functions/agent-events';
import type { Logger } from '@reprise/functions/lib/log';
import { failed, stopped, toResult } from './run-outcomes';
import type { RunOutcome } from './runtime';
import type { StopReason } from './task-registry';
import { TextRedactor } from './text-redactor';
import { type PrepDeps, prepareTranscript } from './transcript-prep';
import { fileExists } from './transcripts';

export interface TaskDeps extends PrepDeps {
  logger: Logger;
  now?: () => number;
}

/**
 * Runs one turn: prepare the transcript, run the CLI, describe the result — `emit` gets it last —
 * and then archive what the CLI wrote. The archive comes after the result, off the turn's
 * critical path (in AWS it uploads the whole transcript to S3); resolves once it is written.
 */
export const runTask = async (
  deps: TaskDeps,
  request: AgentTaskRequest,
  emit: (event: AgentEvent) => void,
  signal: AbortSignal,
): Promise<void> => {
  const now = deps.now ?? Date.now;
  const started = now();
  const log = deps.logger.child({ execution_id: request.execution_id, session_id: request.session_id });
  const resume = request.resume === true;
  const fork = resume && request.fork_session === true;
  const redactor = new TextRedactor();
  const flushText = () => {
    const rest = redactor.flush();
    if (rest) emit({ type: 'text', text: rest });
  };
  const send = (event: AgentEvent) => {
    if (event.type !== 'text') {
      flushText();
      emit(event);
      return;
    }
    const text = redactor.push(event.text);
    if (text) emit({ type: 'text', text });
  };
  const notice = (code: string, message: string) => emit({ type: 'error', code, message });

  emit({
    type: 'status',
    status: 'running',
    session_id: fork ? null : request.session_id,
    ...(request.model ? { model: request.model } : {}),
  });
  log.info('task_started', { resume, fork });
  let outcome: RunOutcome;
  try {
    if (resume) {
      const prepared = await prepareTranscript(deps, request.session_id, fork, notice, log);
      if (prepared === 'expired') {
        emit(
          finish(failed('session_expired', 'The session transcript is gone from disk and from the archive')),
        );
        return;
      }
    } else {
      await deps.ledger.add(request.session_id);
    }
    const spec = {
      prompt: request.message,
      sessionId: request.session_id,
      resume,
      forkSession: fork,
      model: request.model,
      allowedTools: request.allowed_tools,
      systemPrompt: request.system_prompt,
      maxTurns: request.max_turns,
      keepWarm: request.keep_warm ?? true,
    };
    const ran = signal.aborted
      ? failed('cancelled', 'Stopped before start')
      : await deps.runtime.run(spec, { signal, emit: send });
    flushText();
    outcome = signal.aborted ? stopped(ran, signal.reason as StopReason, request) : ran;
    if (!fork && outcome.sessionId === null && outcome.error?.code !== 'session_not_found') {
      outcome = { ...outcome, sessionId: request.session_id };
    }
    if (outcome.error?.code === 'session_not_found') outcome = { ...outcome, sessionId: null };
  } catch (error) {
    log.error('task_crashed', { error: error instanceof Error ? error.name : 'unknown' });
    outcome = failed('internal', 'The agent server failed to run the task');
  }
  const written = outcome.sessionId;
  const file = written ? deps.runtime.transcriptPath(written) : null;
  // The ledger first (a local file): from now on, a transcript that vanishes reads as expired.
  const kept = file !== null && (await fileExists(file));
  if (kept) await deps.ledger.add(written!).catch(() => log.warn('ledger_failed'));
  emit(finish(outcome));
  if (!kept) return;
  try {
    await deps.archive.save(written!, file!);
  } catch (error) {
    // The result is out; the transcript is still on disk and the next turn archives it whole.
    log.error('archive_failed', { error: error instanceof Error ? error.name : 'unknown' });
  }

  function finish(final: RunOutcome): ResultEvent {
    const result = toResult(final, Math.max(0, now() - started));
    log.info('task_finished', {
      status: final.status,
      error_code: final.error?.code,
      duration_ms: result.duration_ms,
    });
    return result;
  }
};
