import { createHash } from 'node:crypto';
import type { ChatRecord } from '../data/stores/chats';
import type { ExecutionRecord } from '../data/stores/execution-record';
import { AppError, ConflictError, NotFoundError } from '../lib/errors';
import { ulid, uuid } from '../lib/ids';
import { assertTaskOptionsSupported } from '../lib/runtime-options';
import { sanitize } from '../lib/sanitizer';
import type { ExecutionSource } from '../lib/schemas/executions';
import type { TaskRequest } from '../lib/schemas/tasks';
import { requireVisibleAgent } from './access';
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
 * dispatch (which wakes a sleeping agent). Nothing is written before every check has passed.
 */
export async function submitTask(
  deps: CoreDeps,
  who: Identity,
  agentName: string,
  body: TaskRequest,
  opts: SubmitOptions = {},
): Promise<Submitted> {
  const { stores } = deps;
  const agent = await requireVisibleAgent(stores, who, agentName);
  assertTaskOptionsSupported(agent.runtime, body);
  const keyHash = opts.idempotencyKey ? sha256(opts.idempotencyKey) : null;
  // The same key means the same request (IETF Idempotency-Key draft): agent and body must match.
  const bodyHash = sha256(JSON.stringify([agent.name, body]));
  if (keyHash) {
    const replay = await findReplay(deps, who, keyHash, bodyHash);
    if (replay) return replay;
  }

  const chat = body.chat_session_id
    ? await requireOwnChat(deps, who, agent.name, body.chat_session_id)
    : null;
  // Present means "resume this", even when empty: "" is a malformed id (400), never a fresh run.
  const resumeId = body.resume_session_id ?? chat?.head_session_id ?? undefined;
  if (resumeId !== undefined) assertWellFormedSessionId(resumeId);
  // The gate and the transcript check are independent reads: one round trip, not two. A sleeping
  // agent is woken by the dispatch below; only an agent that is up can say now whether the
  // transcript exists (410), otherwise the run checks it when it starts (session_expired).
  const [owners, { endpoint, transcript }] = await Promise.all([
    resumeId !== undefined ? passResumeGate(stores.executions, who, agent.name, resumeId) : [],
    (async () => {
      if (!resumeId) return { endpoint: null, transcript: null };
      const endpoint = await deps.fleet.endpoint({ tenant: who.tenant, agent: agent.name }, agent);
      return {
        endpoint,
        transcript: endpoint ? await deps.agentClient.sessionState(endpoint, resumeId) : null,
      };
    })(),
  ]);
  if (transcript === 'missing') {
    throw new AppError(410, 'session_expired', 'The transcript of that session is gone; start a fresh chat');
  }
  const id = ulid(deps.clock.now());
  const now = new Date(deps.clock.now()).toISOString();
  const fork = Boolean(resumeId && body.fork_session);
  // A fork only reads the session it starts from, so many chats may branch from one execution at
  // once; a plain resume appends to it and must be the only writer.
  const leased = resumeId && !fork ? resumeId : null;
  if (
    leased &&
    !(await stores.leases.acquireLease(who.tenant, agent.name, leased, id, LEASE_TTL_MS, deps.clock.now()))
  ) {
    throw new ConflictError('Another turn is writing to this session right now', 'session_busy');
  }

  const chatId = chat?.id ?? (body.start_chat ? ulid(deps.clock.now()) : null);
  const execution: ExecutionRecord = {
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
    resumed_from_execution_id: owners[0]?.execution_id ?? null,
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
  try {
    if (
      keyHash &&
      !(await stores.idempotency.claimKey(who.tenant, who.user_id, keyHash, bodyHash, id, deps.clock.now()))
    ) {
      // A concurrent request with the same key won the claim; answer with its execution instead.
      if (leased) await stores.leases.releaseLease(who.tenant, agent.name, leased, id);
      const replay = await findReplay(deps, who, keyHash, bodyHash);
      if (replay) return replay;
      throw new ConflictError('A request with this Idempotency-Key is still being accepted; retry shortly');
    }
    // The run and its chat entry are separate items: written at once, dispatched once both are in.
    await Promise.all([
      stores.executions.createExecution(execution),
      chat
        ? stores.chats.addTurn(chat, id, now)
        : chatId
          ? startChat(deps, who, execution, chatId, now)
          : null,
    ]);
    await deps.dispatcher.dispatch({
      tenant: who.tenant,
      execution_id: id,
      execution,
      agent,
      ...(execution.message === body.message ? {} : { agent_message: body.message }),
    });
  } catch (e) {
    if (leased) await stores.leases.releaseLease(who.tenant, agent.name, leased, id);
    throw e;
  }
  return { execution, chat_session_id: chatId, replayed: false };
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

async function requireOwnChat(
  deps: CoreDeps,
  who: Identity,
  agent: string,
  chatId: string,
): Promise<ChatRecord> {
  const chat = await deps.stores.chats.getChat(who.tenant, chatId);
  if (!chat || chat.agent !== agent || chat.owner_user_id !== who.user_id) throw new NotFoundError('Chat');
  return chat;
}

async function startChat(deps: CoreDeps, who: Identity, e: ExecutionRecord, chatId: string, now: string) {
  await deps.stores.chats.createChat(
    {
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
    },
    e.id,
  );
  if (e.resumed_from_execution_id) {
    await deps.stores.executions.addContinuation(
      who.tenant,
      e.resumed_from_execution_id,
      chatId,
      who.user_id,
      now,
    );
  }
}
