import type { CoreDeps } from '../core/deps';
import { type DispatchJob, finishedKey } from '../core/ports';
import { LEASE_TTL_MS } from '../core/tasks';
import type { ExecutionRecord } from '../data/stores/execution-record';
import { AgentHttpError } from '../fleet/agent-client';
import type { AgentEndpoint } from '../fleet/agent-fleet';
import type { AgentTaskRequest, ResultEvent } from '../lib/agent-events';
import { sanitizeDeep } from '../lib/sanitizer';
import { EventWriter } from './event-writer';
import { failureResult, outcomeFromResult } from './outcome';

export type RunnerDeps = Pick<CoreDeps, 'stores' | 'fleet' | 'agentClient' | 'signal' | 'clock' | 'logger'>;

const LEASE_RENEW_MS = 30_000;
/** The agent enforces the timeout itself; this only catches an agent that never answers. */
const TRANSPORT_GRACE_MS = 60_000;

/**
 * Runs one execution to its end: marks it running, streams the agent's events into the table,
 * writes the outcome with a conditional update (cancel wins races), advances the chat and frees
 * the session lease — whatever happens to the agent on the way.
 */
export async function runExecution(deps: RunnerDeps, job: DispatchJob): Promise<void> {
  const { stores, clock } = deps;
  const log = deps.logger.child({ tenant: job.tenant, execution_id: job.execution_id });
  const e = job.execution
    ? { ...job.execution }
    : await stores.executions.getExecution(job.tenant, job.execution_id);
  if (!e) return log.warn('runner: execution not found');
  // Lambda retries an async invoke after a crash or timeout (and may deliver one twice): a run that
  // already started is never run a second time, nor its lease touched; the dead-letter consumer and
  // the sweeper end it.
  if (e.status !== 'queued') return log.info('runner: not queued; retry ignored', { status: e.status });
  const writer = new EventWriter(stores.events, deps.signal, e.tenant, e.id, log, () => clock.now());
  try {
    const endpoint = await deps.fleet.endpoint({ tenant: e.tenant, agent: e.agent });
    const result = endpoint
      ? await startAndStream(deps, e, endpoint, writer, job.agent_message)
      : failureResult(e, 'agent_not_running', `Agent ${e.agent} is not running`, clock.now());
    const outcome = outcomeFromResult(result, new Date(clock.now()).toISOString());
    const finished = await stores.executions.finishExecution(e, outcome);
    // Waiters (`?wait=`) only need the stored status: wake them before the bookkeeping below.
    deps.signal.notify(finishedKey(e.id));
    // Followers end on the result event, so it must tell the stored truth: when a cancel won the
    // race, say so rather than what the agent reported.
    const stored = finished ? null : await stores.executions.getExecution(e.tenant, e.id);
    writer.push(
      stored ? { ...result, status: stored.status as typeof result.status, error: stored.error } : result,
    );
    await writer.flush();
    const sessionUsable = !['session_not_found', 'session_expired', 'session_busy'].includes(
      result.error?.code ?? '',
    );
    if (e.chat_session_id && outcome.claude_session_id && sessionUsable) {
      await stores.chats.advanceHead(e.tenant, e.chat_session_id, outcome.claude_session_id, e.id);
    }
    log.info('runner: finished', { status: finished ? outcome.status : 'already_terminal' });
  } finally {
    await writer.flush();
    if (e.lease_session_id) await stores.leases.releaseLease(e.tenant, e.agent, e.lease_session_id, e.id);
    deps.signal.notify(e.id);
    deps.signal.notify(finishedKey(e.id));
  }
}

/**
 * Marks the run `running` while the agent already starts on it, so the write is off the critical
 * path. If the mark fails — a cancel got there first — the agent is stopped at once.
 */
async function startAndStream(
  deps: RunnerDeps,
  e: ExecutionRecord,
  endpoint: AgentEndpoint,
  writer: EventWriter,
  agentMessage: string | undefined,
) {
  const abort = new AbortController();
  const [marked, result] = await Promise.all([
    deps.stores.executions.markRunning(e, new Date(deps.clock.now()).toISOString()).then(async (ok) => {
      if (!ok) {
        abort.abort();
        await deps.agentClient.cancel(endpoint, e.id);
      }
      return ok;
    }),
    stream(deps, e, endpoint, writer, abort, agentMessage),
  ]);
  return marked ? result : failureResult(e, 'cancelled', 'Cancelled before it started', deps.clock.now());
}

async function stream(
  deps: RunnerDeps,
  e: ExecutionRecord,
  endpoint: AgentEndpoint,
  writer: EventWriter,
  abort: AbortController,
  agentMessage: string | undefined,
) {
  const deadline = setTimeout(() => abort.abort(), e.timeout_seconds * 1000 + TRANSPORT_GRACE_MS);
  const renew = e.lease_session_id
    ? setInterval(() => {
        void deps.stores.leases
          .renewLease(e.tenant, e.agent, e.lease_session_id!, e.id, LEASE_TTL_MS, deps.clock.now())
          .catch(() => {});
      }, LEASE_RENEW_MS)
    : null;
  let result: ResultEvent | null = null;
  try {
    for await (const raw of deps.agentClient.runTask(endpoint, taskBody(e, agentMessage), abort.signal)) {
      const event = sanitizeDeep(raw);
      if (event.type === 'result') {
        result = event;
        continue;
      }
      if (event.type === 'status' && event.session_id && e.forked && !e.claude_session_id) {
        e.claude_session_id = event.session_id;
        await deps.stores.executions.recordSessionId(e, event.session_id);
      }
      writer.push(event);
    }
  } catch (err) {
    if (err instanceof AgentHttpError && err.code === 'session_busy') {
      return failureResult(e, 'session_busy', 'Another turn is writing to this session', deps.clock.now());
    }
    deps.logger.warn('runner: agent stream broke', { execution_id: e.id, error: String(err).slice(0, 200) });
  } finally {
    clearTimeout(deadline);
    if (renew) clearInterval(renew);
  }
  return (
    result ??
    failureResult(
      e,
      'agent_unreachable',
      'The agent stopped before it reported a result (it may have crashed)',
      deps.clock.now(),
    )
  );
}

function taskBody(e: ExecutionRecord, agentMessage: string | undefined): AgentTaskRequest {
  const resuming = e.resumed_session_id !== null;
  return {
    execution_id: e.id,
    message: agentMessage ?? e.message,
    session_id: resuming ? e.resumed_session_id! : e.claude_session_id!,
    resume: resuming,
    fork_session: e.forked,
    timeout_seconds: e.timeout_seconds,
    ...(e.model ? { model: e.model } : {}),
    ...(e.options.allowed_tools ? { allowed_tools: e.options.allowed_tools } : {}),
    ...(e.options.system_prompt ? { system_prompt: e.options.system_prompt } : {}),
    ...(e.options.max_turns ? { max_turns: e.options.max_turns } : {}),
  };
}
