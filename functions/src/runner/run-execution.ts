import { type LifecycleDeps, pumpAgent } from '../core/agent-lifecycle';
import { type DispatchJob, finishedKey } from '../core/ports';
import { LEASE_TTL_MS } from '../core/tasks';
import type { ExecutionRecord } from '../data/stores/execution-record';
import { isTerminal } from '../data/stores/execution-record';
import type { ExecutionOutcome } from '../data/stores/executions';
import { AgentHttpError } from '../fleet/agent-client';
import type { AgentEndpoint } from '../fleet/agent-fleet';
import type { AgentTaskRequest, ResultEvent } from '../lib/agent-events';
import type { Logger } from '../lib/log';
import { sanitizeDeep } from '../lib/sanitizer';
import { EventWriter } from './event-writer';
import { failureResult, outcomeFromResult } from './outcome';

export type RunnerDeps = LifecycleDeps;

const LEASE_RENEW_MS = 30_000;
/** The agent enforces the timeout itself; this only catches an agent that never answers. */
const TRANSPORT_GRACE_MS = 60_000;

/**
 * A dispatch job either says "a run was queued" (dispatch the agent's queue, which may wake the
 * agent) or hands over a run the queue gave a slot to, which then runs to its end here.
 */
export async function runExecution(deps: RunnerDeps, job: DispatchJob): Promise<void> {
  if (job.agent_queue) return pumpAgent(deps, job.tenant, job.agent_queue, { wake: job.wake ?? false });
  const e = job.execution
    ? { ...job.execution }
    : await deps.stores.executions.getExecution(job.tenant, job.execution_id);
  if (!e) return deps.logger.warn('runner: execution not found', { execution_id: job.execution_id });
  if (!job.claimed) {
    if (e.status === 'queued')
      await pumpAgent(deps, e.tenant, e.agent, {
        include: e,
        ...(job.agent ? { known: job.agent } : {}),
        ...(job.agent_message === undefined ? {} : { agentMessage: job.agent_message }),
      });
    return;
  }
  if (!job.runner_claimed && !(await takeRun(deps, e)))
    return deps.logger.info('runner: already handed to a runner; retry ignored', { execution_id: e.id });
  try {
    await runClaimed(deps, e, job);
  } finally {
    // The slot goes back and the next queued run of this agent starts: no process waits for it.
    const agent = await deps.stores.agents.releaseRunSlot(
      e.tenant,
      e.agent,
      new Date(deps.clock.now()).toISOString(),
    );
    await pumpAgent(deps, e.tenant, e.agent, agent ? { known: agent } : {}).catch((err: unknown) =>
      deps.logger.error('runner: dispatching the queue failed', {
        agent: e.agent,
        error: String(err).slice(0, 300),
      }),
    );
  }
}

/**
 * Lambda retries an async invoke after a crash or timeout (and may deliver one twice): a run is
 * handed to one runner only, and only that one gives its slot back; the dead-letter consumer and
 * the sweeper end one whose runner died. False when another runner has it. A run that ended
 * before any runner came (cancelled) is this one's to clean up: `e` learns its stored status.
 */
async function takeRun(deps: RunnerDeps, e: ExecutionRecord): Promise<boolean> {
  if (e.runner_at) return false;
  if (isTerminal(e.status)) return true;
  const claimed = await deps.stores.executions.claimRunner(e, new Date(deps.clock.now()).toISOString());
  if (claimed.claim === 'ended') e.status = claimed.status;
  return claimed.claim !== 'taken';
}

/**
 * Runs one execution to its end: streams the agent's events into the table, writes the outcome
 * with a conditional update (cancel wins races), advances the chat and frees the session lease —
 * whatever happens to the agent on the way.
 */
async function runClaimed(deps: RunnerDeps, e: ExecutionRecord, job: DispatchJob): Promise<void> {
  const { stores, clock } = deps;
  let leaseHeld = e.lease_session_id !== null;
  const log = deps.logger.child({ tenant: e.tenant, execution_id: e.id });
  // The platform's queued status events come first; the agent's follow them.
  const writer = new EventWriter(
    stores.events,
    deps.signal,
    e.tenant,
    e.id,
    log,
    () => clock.now(),
    e.queued_events ?? 0,
  );
  try {
    // Cancelled before it started: nothing to run, its lease and slot go back.
    if (isTerminal(e.status)) return;
    // The agent item records where its server listens (AWS): one read, no fleet lookup — none when
    // the dispatcher in this process just read it.
    const agent = job.agent ?? (await stores.agents.getAgent(e.tenant, e.agent));
    const endpoint = agent && (await deps.fleet.endpoint({ tenant: e.tenant, agent: e.agent }, agent));
    const result = !endpoint
      ? failureResult(
          e,
          'agent_unreachable',
          `Agent ${e.agent} stopped before the run could start`,
          clock.now(),
        )
      : (await sessionGone(deps, e, endpoint))
        ? failureResult(
            e,
            'session_expired',
            'The transcript of that session is gone; start a fresh chat',
            clock.now(),
          )
        : await stream(deps, e, endpoint, writer, new AbortController(), job.agent_message);
    const outcome = outcomeFromResult(result, new Date(clock.now()).toISOString());
    const sessionUsable = !['session_not_found', 'session_expired', 'session_busy'].includes(
      result.error?.code ?? '',
    );
    // The turn is over on the agent: the outcome, the chat's new head and the free session are
    // written together, so whoever hears "finished" may send the next turn at once.
    const [finished] = await Promise.all([
      finishSafely(deps, e, outcome, log),
      e.chat_session_id && outcome.claude_session_id && sessionUsable
        ? stores.chats.advanceHead(e.tenant, e.chat_session_id, outcome.claude_session_id, e.id)
        : null,
      leaseHeld ? releaseLease(deps, e) : null,
    ]);
    leaseHeld = false;
    deps.signal.notify(finishedKey(e.id));
    // Followers end on the result event, so it must tell the stored truth: when a cancel won the
    // race, say so rather than what the agent reported.
    const stored = finished ? null : await stores.executions.getExecution(e.tenant, e.id);
    writer.push(
      stored ? { ...result, status: stored.status as typeof result.status, error: stored.error } : result,
    );
    await writer.flush();
    log.info('runner: finished', { status: finished ? outcome.status : 'already_terminal' });
  } finally {
    await writer.flush();
    if (leaseHeld) await releaseLease(deps, e);
    deps.signal.notify(e.id);
    deps.signal.notify(finishedKey(e.id));
  }
}

const releaseLease = (deps: RunnerDeps, e: ExecutionRecord) =>
  deps.stores.leases.releaseLease(e.tenant, e.agent, e.lease_session_id!, e.id);

/**
 * Writes the outcome; if that fails (storage refused it), ends the run anyway with a small failed
 * outcome naming the reason, so it never stays `running` until the sweeper finds it. True only
 * when the outcome asked for was stored.
 */
async function finishSafely(
  deps: RunnerDeps,
  e: ExecutionRecord,
  outcome: ExecutionOutcome,
  log: Logger,
): Promise<boolean> {
  try {
    return await deps.stores.executions.finishExecution(e, outcome);
  } catch (err) {
    log.error('runner: could not store the outcome', { error: String(err).slice(0, 200) });
    await deps.stores.executions.finishExecution(e, {
      ...outcome,
      status: 'failed',
      response: null,
      tool_calls: [],
      error: { code: 'internal', message: 'The run finished but its result could not be stored' },
    });
    // Not the outcome asked for: the caller re-reads what was stored and reports that.
    return false;
  }
}

/** Submit could not ask a sleeping agent whether the resumed transcript exists; ask it now. */
async function sessionGone(deps: RunnerDeps, e: ExecutionRecord, endpoint: AgentEndpoint): Promise<boolean> {
  if (!e.verify_session || !e.resumed_session_id) return false;
  return (await deps.agentClient.sessionState(endpoint, e.resumed_session_id)) === 'missing';
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
        // The last event of a turn. The agent server archives the transcript after it and only
        // then ends the stream; nobody needs to wait for that to hear the turn is over.
        result = event;
        break;
      }
      // Forks learn their id here; so do new runs of a CLI that picks its own ids (codex).
      if (event.type === 'status' && event.session_id && reportsNewSession(e, event.session_id)) {
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
    // Only a chat's next turn can reuse a warm process; a standalone run would hold one for nothing.
    keep_warm: e.chat_session_id !== null,
    ...(e.model ? { model: e.model } : {}),
    ...(e.options.allowed_tools ? { allowed_tools: e.options.allowed_tools } : {}),
    ...(e.options.system_prompt ? { system_prompt: e.options.system_prompt } : {}),
    ...(e.options.max_turns ? { max_turns: e.options.max_turns } : {}),
  };
}

/** A plain resume keeps its session id; a fork or a new run may hear its real one from the agent. */
const reportsNewSession = (e: ExecutionRecord, sessionId: string): boolean =>
  sessionId !== e.claude_session_id && (e.forked ? !e.claude_session_id : e.resumed_session_id === null);
