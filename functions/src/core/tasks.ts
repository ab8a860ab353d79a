import { createHash } from 'node:crypto';
import type { AgentRecord } from '../data/stores/agents';
import type { ChatRecord } from '../data/stores/chats';
import type { ExecutionRecord } from '../data/stores/execution-record';
import { isWellFormedSessionId } from '../lib/agent-events';
import { AppError, ConflictError, NotFoundError } from '../lib/errors';
import { ulid, uuid } from '../lib/ids';
import { assertTaskOptionsSupported } from '../lib/runtime-options';
import { sanitize } from '../lib/sanitizer';
import type { ExecutionSource } from '../lib/schemas/executions';
import type { TaskRequest } from '../lib/schemas/tasks';
import { endRun } from '../runner/end-run';
import { requireVisibleAgent } from './access';
import { lifecycleConfig, maxRunsOf } from './agent-lifecycle';
import type { CoreDeps } from './deps';
import type { Identity } from './identity';
import { assertWellFormedSessionId, passResumeGate } from './resume-gate';

export const DEFAULT_TIMEOUT_SECONDS = 600;
/** Long enough to cover dispatch; the runner renews it while the CLI runs. */
export const LEASE_TTL_MS = 120_000;

export interface SubmitOptions {
  readonly idempotencyKey?: string | undefined;
  readonly source?: ExecutionSource;
  readonly scheduleId?: string | null;
  readonly triggeredBy?: { kind: string; id: string };
}

export interface Submitted {
  readonly execution: ExecutionRecord;
  readonly chat_session_id: string | null;
  readonly replayed: boolean;
}

/**
 * Runs a task (and every chat turn). The order is the contract: agent visible (404) → resume gate
 * (400/404) → transcript present when the agent is up (410) → lease (409 session_busy) → create →
 * dispatch (which wakes a sleeping agent). Nothing is written before every check has passed, and
 * then everything at once: lease, idempotency key, run, chat entry and — when the agent is up with
 * a free slot and nobody queued ahead — the run slot, so the run goes straight to its runner.
 */
export async function submitTask(
  deps: CoreDeps,
  who: Identity,
  agentName: string,
  body: TaskRequest,
  opts: SubmitOptions = {},
): Promise<Submitted> {
  const { stores } = deps;
  const agentRead = requireVisibleAgent(stores, who, agentName);
  // A session the request names is looked up on the agent as soon as the agent is known to be
  // visible, beside the reads below; the answer is used only after the gate has passed.
  const named = body.resume_session_id;
  const namedLookup =
    named !== undefined && isWellFormedSessionId(named)
      ? agentRead.then((a) => lookUpTranscript(deps, who, a, named))
      : null;
  // Awaited below, unless an earlier check refuses the request first.
  namedLookup?.catch(() => {});
  // Independent reads, one round trip: the agent (its 404 comes first), the chat, and whether a
  // run of the agent waits in its queue (a new run may not start ahead of it).
  const [agent, chatItem, queuedAhead] = await Promise.all([
    agentRead,
    body.chat_session_id ? stores.chats.getChat(who.tenant, body.chat_session_id) : null,
    stores.executions.hasQueuedRuns(who.tenant, agentName),
  ]);
  assertTaskOptionsSupported(agent.runtime, body);
  const keyHash = opts.idempotencyKey ? sha256(opts.idempotencyKey) : null;
  // The same key means the same request (IETF Idempotency-Key draft): agent and body must match.
  const bodyHash = sha256(JSON.stringify([agent.name, body]));
  if (keyHash) {
    const replay = await findReplay(deps, who, keyHash, bodyHash);
    if (replay) return replay;
  }

  const chat = body.chat_session_id ? ownChat(chatItem, who, agent.name) : null;
  // Present means "resume this", even when empty: "" is a malformed id (400), never a fresh run.
  const resumeId = body.resume_session_id ?? chat?.head_session_id ?? undefined;
  if (resumeId !== undefined) assertWellFormedSessionId(resumeId);
  // The head of the caller's own chat was written by that chat's turns: it passes the gate by
  // definition, and the chat names the run that wrote it.
  const headOfOwnChat = chat?.head_execution_id && resumeId === chat.head_session_id ? chat : null;
  // Independent again: the gate, and the transcript (only an agent that is up can say now whether
  // it exists — 410 — otherwise the run checks it when it starts: session_expired).
  const [owners, { endpoint, transcript }] = await Promise.all([
    resumeId !== undefined && !headOfOwnChat
      ? passResumeGate(stores.executions, who, agent.name, resumeId)
      : [],
    namedLookup ?? lookUpTranscript(deps, who, agent, resumeId),
  ]);
  // Only after the gate, whose 404 comes first: an unknown id must tell no more than a foreign one.
  if (transcript === 'missing') {
    throw new AppError(410, 'session_expired', 'The transcript of that session is gone; start a fresh chat');
  }
  const id = ulid(deps.clock.now());
  const now = new Date(deps.clock.now()).toISOString();
  const fork = Boolean(resumeId && body.fork_session);
  // A fork only reads the session it starts from, so many chats may branch from one execution at
  // once; a plain resume appends to it and must be the only writer.
  const leased = resumeId && !fork ? resumeId : null;
  const chatId = chat?.id ?? (body.start_chat ? ulid(deps.clock.now()) : null);
  const queued: ExecutionRecord = {
    tenant: who.tenant,
    id,
    agent: agent.name,
    runtime: agent.runtime,
    source: opts.source ?? (chatId ? 'chat' : who.via === 'api_key' ? 'api' : 'manual'),
    status: 'queued',
    // Stored and shown redacted (and so every chat title made from it); the agent gets it as sent.
    message: sanitize(body.message),
    model: body.model ?? null,
    response: null,
    error: null,
    owner_user_id: who.user_id,
    triggered_by:
      opts.triggeredBy ??
      (who.api_key_id ? { kind: 'api_key', id: who.api_key_id } : { kind: 'user', id: who.user_id }),
    // New sessions get their id now, so even a run that crashes at once can be continued.
    claude_session_id: resumeId ? (fork ? null : resumeId) : uuid(),
    resumed_session_id: resumeId ?? null,
    resumed_from_execution_id: headOfOwnChat?.head_execution_id ?? owners[0]?.execution_id ?? null,
    chat_session_id: chatId,
    forked: fork,
    cost_usd: null,
    context_used: null,
    context_max: null,
    num_turns: null,
    tool_calls: [],
    created_at: now,
    started_at: null,
    finished_at: null,
    duration_ms: null,
    schedule_id: opts.scheduleId ?? null,
    timeout_seconds: body.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS,
    options: {
      allowed_tools: body.allowed_tools,
      system_prompt: body.system_prompt,
      max_turns: body.max_turns,
    },
    lease_session_id: leased,
    ...(resumeId && !endpoint ? { verify_session: true } : {}),
  };
  // Started at once: marked running with its slot taken in the same write. An in-process
  // dispatcher hands each job to exactly one runner, so that write names the runner too.
  const startNow = endpoint !== null && agent.state === 'running' && !queuedAhead;
  const handOver = deps.dispatcher.deliversOnce === true;
  const started: ExecutionRecord = {
    ...queued,
    status: 'running',
    started_at: now,
    ...(handOver ? { runner_at: now } : {}),
  };

  const accept: Acceptance = { who, agent, chat, chatId, keyHash, bodyHash, now };
  let execution = startNow ? started : queued;
  let refused = await acceptRun(deps, accept, execution, startNow);
  if (refused === 'no_slot') {
    // The slot went to someone else meanwhile (or the agent began to stop): queue it instead.
    execution = queued;
    refused = await acceptRun(deps, accept, execution, false);
  }
  if (refused === 'key_taken') {
    // A concurrent request with the same key won the claim; answer with its execution instead.
    const replay = await findReplay(deps, who, keyHash!, bodyHash);
    if (replay) return replay;
    throw new ConflictError('A request with this Idempotency-Key is still being accepted; retry shortly');
  }
  if (refused === 'session_busy') {
    throw new ConflictError('Another turn is writing to this session right now', 'session_busy');
  }
  if (refused) throw new Error('The run could not be stored');

  const message = execution.message === body.message ? {} : { agent_message: body.message };
  if (execution.status === 'queued') {
    await deps.dispatcher.dispatch({ tenant: who.tenant, execution_id: id, execution, agent, ...message });
    return { execution, chat_session_id: chatId, replayed: false };
  }
  try {
    await deps.dispatcher.dispatch({
      tenant: who.tenant,
      execution_id: id,
      execution,
      agent,
      claimed: true,
      ...(handOver ? { runner_claimed: true } : {}),
      ...message,
    });
  } catch (e) {
    // Nobody will run it: end it now and give its slot back, rather than leave it `running`.
    await endRun(deps, execution, 'internal', 'The run could not be handed to a runner');
    await stores.agents.releaseRunSlot(who.tenant, agent.name, new Date(deps.clock.now()).toISOString());
    throw e;
  }
  return { execution, chat_session_id: chatId, replayed: false };
}

/**
 * Where the agent listens (null when it is not up) and, if it is up and a session is resumed,
 * whether that session's transcript is still there.
 */
async function lookUpTranscript(deps: CoreDeps, who: Identity, agent: AgentRecord, resumeId?: string) {
  const endpoint = await deps.fleet.endpoint({ tenant: who.tenant, agent: agent.name }, agent);
  const transcript = endpoint && resumeId ? await deps.agentClient.sessionState(endpoint, resumeId) : null;
  return { endpoint, transcript };
}

interface Acceptance {
  readonly who: Identity;
  readonly agent: AgentRecord;
  readonly chat: ChatRecord | null;
  readonly chatId: string | null;
  readonly keyHash: string | null;
  readonly bodyHash: string;
  readonly now: string;
}

/**
 * The accept write: the Idempotency-Key claim, the session lease, the run, its chat entry and,
 * with `withSlot`, the run slot — one transaction, all or nothing. Null when stored, else which
 * condition refused it (`other` should not happen: ids are fresh).
 */
async function acceptRun(
  deps: CoreDeps,
  a: Acceptance,
  e: ExecutionRecord,
  withSlot: boolean,
): Promise<'key_taken' | 'session_busy' | 'no_slot' | 'other' | null> {
  const { stores } = deps;
  const { tenant, user_id } = a.who;
  const nowMs = Date.parse(a.now);
  const key = a.keyHash
    ? [stores.idempotency.claimWrite(tenant, user_id, a.keyHash, a.bodyHash, e.id, nowMs)]
    : [];
  const lease = e.lease_session_id
    ? [stores.leases.acquireWrite(tenant, e.agent, e.lease_session_id, e.id, LEASE_TTL_MS, nowMs)]
    : [];
  const chat = a.chat
    ? stores.chats.addTurnWrites(a.chat, e.id, a.now)
    : a.chatId
      ? chatStartWrites(deps, a.who, e, a.chatId, a.now)
      : [];
  const { tenantMaxConcurrentRuns } = lifecycleConfig(deps);
  const slot = withSlot
    ? stores.agents.runSlotWrites(a.agent, maxRunsOf(a.agent), tenantMaxConcurrentRuns, a.now, {
        whileRunning: true,
      })
    : [];
  const failed = await stores.writeAll([
    ...key,
    ...lease,
    await stores.executions.createWrite(e),
    ...chat,
    ...slot,
  ]);
  if (!failed) return null;
  if (key.length > 0 && failed[0]) return 'key_taken';
  if (lease.length > 0 && failed[key.length]) return 'session_busy';
  if (slot.length > 0 && failed.slice(-slot.length).some(Boolean)) return 'no_slot';
  return 'other';
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function findReplay(
  deps: CoreDeps,
  who: Identity,
  keyHash: string,
  bodyHash: string,
): Promise<Submitted | null> {
  const claimed = await deps.stores.idempotency.findExecutionForKey(who.tenant, who.user_id, keyHash);
  if (!claimed) return null;
  // Keys claimed before body hashes were stored carry none; they keep replaying as before.
  if (claimed.body_hash && claimed.body_hash !== bodyHash) {
    throw new AppError(
      422,
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request',
    );
  }
  const existing = await deps.stores.executions.getExecution(who.tenant, claimed.execution_id);
  return existing ? { execution: existing, chat_session_id: existing.chat_session_id, replayed: true } : null;
}

/** A chat named by the request: it must be the caller's own on this agent (404 otherwise). */
function ownChat(chat: ChatRecord | null, who: Identity, agent: string): ChatRecord {
  if (!chat || chat.agent !== agent || chat.owner_user_id !== who.user_id) throw new NotFoundError('Chat');
  return chat;
}

/** A new chat, its first turn and, when it continues an execution, the note on that execution. */
function chatStartWrites(deps: CoreDeps, who: Identity, e: ExecutionRecord, chatId: string, now: string) {
  const chat: ChatRecord = {
    tenant: who.tenant,
    id: chatId,
    agent: e.agent,
    owner_user_id: who.user_id,
    title: e.message.replace(/\s+/g, ' ').trim().slice(0, 80),
    head_session_id: e.claude_session_id,
    head_execution_id: null,
    resumed_from_execution_id: e.resumed_from_execution_id,
    turns: 1,
    created_at: now,
    updated_at: now,
  };
  return [
    ...deps.stores.chats.createWrites(chat, e.id),
    ...(e.resumed_from_execution_id
      ? [
          deps.stores.executions.continuationWrite(
            who.tenant,
            e.resumed_from_execution_id,
            chatId,
            who.user_id,
            now,
          ),
        ]
      : []),
  ];
}
