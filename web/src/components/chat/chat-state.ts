import type { AgentEvent } from '@reprise/functions/agent-events';
import type { ChatDetail, Execution, TaskAccepted, TaskRequest } from '@reprise/functions/schemas';
import { cleanErrorMessage, modelTrouble } from '~/lib/clean-error';

/**
 * The chat tab's rules as plain mutators over one state object, so they can be applied to a
 * Solid store (`setState(produce(fn))`) and unit-tested on a bare object alike.
 */
export type ToolChip = {
  id: string;
  name: string;
  input: unknown;
  state: 'running' | 'ok' | 'error';
  preview: string;
};

export type UiMessage = {
  key: string;
  role: 'user' | 'assistant';
  content: string;
  tools: ToolChip[];
  status: 'streaming' | 'done' | 'failed' | 'cancelled';
  executionId: string | null;
  error: { code: string; message: string } | null;
  /** The CLI is retrying the model: what a person is told while the dots would otherwise spin. */
  retry?: { attempt: number; message: string } | null;
};

export type ChatProblem =
  | { kind: 'agent_not_running'; message: string }
  | { kind: 'session_expired'; message: string }
  | { kind: 'error'; code: string; message: string };

export type ResumeContext = { sessionId: string; executionId: string | null };

/** What the server said about a deep link before anything was promised. */
export type ResumeCheck = { state: 'checking' } | { state: 'ok' } | { state: 'refused'; reason: string };

export type ChatState = {
  messages: UiMessage[];
  /** The chat the next turn appends to; null until the first turn creates one. */
  chatId: string | null;
  /** The session the previous turn wrote: the next turn resumes it. */
  headSessionId: string | null;
  /** Kept for the whole resumed conversation; dismissing the banner does not clear it. */
  resume: ResumeContext | null;
  resumeCheck: ResumeCheck;
  /** The execution a loaded chat continued (shown as a link, not as a promise). */
  continuedFrom: string | null;
  /** Set while the turn's run waits: for the agent to wake, or for a free slot. */
  waiting: { for: string; since: number } | null;
  bannerDismissed: boolean;
  /** The user asked for a fresh conversation, so the session list must not pick one for them. */
  freshChosen: boolean;
  turn: {
    executionId: string | null;
    draft: string;
    before: { chatId: string | null; head: string | null };
  } | null;
  problem: ChatProblem | null;
  draft: string;
};

export const initialChatState = (): ChatState => ({
  messages: [],
  chatId: null,
  headSessionId: null,
  resume: null,
  resumeCheck: { state: 'ok' },
  continuedFrom: null,
  waiting: null,
  bannerDismissed: false,
  freshChosen: false,
  turn: null,
  problem: null,
  draft: '',
});

let keySeq = 0;
const nextKey = () => `m${++keySeq}`;

function clearConversation(s: ChatState) {
  s.messages = [];
  s.chatId = null;
  s.headSessionId = null;
  s.turn = null;
  s.problem = null;
  s.waiting = null;
  s.continuedFrom = null;
}

export function enterResume(s: ChatState, resume: ResumeContext) {
  clearConversation(s);
  s.resume = { ...resume };
  s.resumeCheck = { state: 'checking' };
  s.bannerDismissed = false;
  s.freshChosen = false;
}

/** Same deep link as the conversation already shown: re-reading it must not wipe the chat. */
export const isSameResume = (s: ChatState, r: ResumeContext) =>
  s.resume?.sessionId === r.sessionId && s.resume.executionId === r.executionId;

export function startNewChat(s: ChatState) {
  clearConversation(s);
  s.resume = null;
  s.resumeCheck = { state: 'ok' };
  s.bannerDismissed = false;
  s.freshChosen = true;
}

export function loadChat(s: ChatState, chat: ChatDetail) {
  clearConversation(s);
  s.resume = null;
  s.resumeCheck = { state: 'ok' };
  s.bannerDismissed = false;
  s.freshChosen = false;
  s.chatId = chat.id;
  s.headSessionId = chat.head_session_id;
  s.continuedFrom = chat.resumed_from_execution_id;
  s.messages = chat.messages.map((m) => ({
    key: nextKey(),
    role: m.role,
    content: m.content,
    tools: [],
    status:
      m.role !== 'assistant' || m.status === 'success'
        ? 'done'
        : m.status === 'cancelled'
          ? 'cancelled'
          : 'failed',
    executionId: m.execution_id,
    error: null,
  }));
}

export function dismissBanner(s: ChatState) {
  s.bannerDismissed = true;
}

export const bannerVisible = (s: ChatState) => s.resume !== null && !s.bannerDismissed;

/** Checks `resume`, not the banner: a dismissed banner still has a resume pending. */
export const canAutoSelect = (s: ChatState) =>
  s.resume === null && s.chatId === null && s.messages.length === 0 && !s.freshChosen && s.turn === null;

export function nextTaskRequest(s: ChatState, message: string): TaskRequest {
  if (s.chatId === null) {
    return s.resume
      ? { message, resume_session_id: s.resume.sessionId, fork_session: true, start_chat: true }
      : { message, start_chat: true };
  }
  if (s.headSessionId) return { message, resume_session_id: s.headSessionId, chat_session_id: s.chatId };
  // The chat exists but no turn reported a session yet (the first one failed early): branch
  // from the execution again rather than lose its context.
  if (s.resume)
    return { message, resume_session_id: s.resume.sessionId, fork_session: true, chat_session_id: s.chatId };
  return { message, chat_session_id: s.chatId };
}

const assistantOf = (s: ChatState) => {
  const last = s.messages[s.messages.length - 1];
  return last?.role === 'assistant' ? last : undefined;
};

export function beginTurn(s: ChatState, message: string) {
  s.turn = { executionId: null, draft: message, before: { chatId: s.chatId, head: s.headSessionId } };
  s.problem = null;
  s.draft = '';
  const base = { tools: [], executionId: null, error: null };
  s.messages.push({ ...base, key: nextKey(), role: 'user', content: message, status: 'done' });
  s.messages.push({ ...base, key: nextKey(), role: 'assistant', content: '', status: 'streaming' });
}

export function turnAccepted(s: ChatState, accepted: TaskAccepted) {
  if (s.turn) s.turn.executionId = accepted.execution_id;
  if (accepted.chat_session_id) s.chatId = accepted.chat_session_id;
  // A fork's id may be unknown until the run reports it; the old head must not be reused.
  s.headSessionId = accepted.session_id;
  for (const m of s.messages.slice(-2)) m.executionId = accepted.execution_id;
}

export function classifyError(err: { status?: number; code: string; message: string }): ChatProblem {
  if (err.code === 'agent_not_running') return { kind: 'agent_not_running', message: err.message };
  if (err.code === 'session_expired' || err.code === 'session_not_found') {
    return { kind: 'session_expired', message: err.message };
  }
  if (err.code === 'session_busy') {
    return {
      kind: 'error',
      code: err.code,
      message: 'Another turn is still writing to this conversation. Wait for it to finish, then send again.',
    };
  }
  return { kind: 'error', code: err.code, message: cleanErrorMessage(err.message) };
}

/** The request failed before a run existed: take the turn back and return the draft. */
export function turnRejected(s: ChatState, err: { status?: number; code: string; message: string }) {
  undoTurn(s);
  s.problem = classifyError(err);
}

/**
 * Stop: the run is cancelled, but what was said stays in the log marked stopped (the agent's
 * session may remember it). The draft comes back for an edited resend; the chat the turn
 * created stays, since it exists on the server now.
 */
export function turnStopped(s: ChatState) {
  const msg = assistantOf(s);
  if (!s.turn) return;
  s.draft = s.turn.draft;
  s.headSessionId = s.turn.before.head;
  if (msg) {
    msg.status = 'cancelled';
    msg.retry = null;
  }
  s.waiting = null;
  s.turn = null;
}

function undoTurn(s: ChatState) {
  if (!s.turn) return;
  s.draft = s.turn.draft;
  s.chatId = s.turn.before.chatId;
  s.headSessionId = s.turn.before.head;
  s.messages.splice(-2, 2);
  s.turn = null;
  s.waiting = null;
}

export function applyEvent(s: ChatState, ev: AgentEvent) {
  const msg = assistantOf(s);
  if (!msg || !s.turn) return;
  switch (ev.type) {
    case 'status': {
      if (ev.session_id && !s.headSessionId) s.headSessionId = ev.session_id;
      // Contract 2: `{status: "queued", waiting_for}` comes before `running` while the agent wakes.
      const waitingFor = (ev as { waiting_for?: string | null }).waiting_for;
      if ((ev.status as string) === 'queued' && waitingFor) {
        if (s.waiting?.for !== waitingFor) s.waiting = { for: waitingFor, since: Date.now() };
      } else s.waiting = null;
      return;
    }
    case 'text':
      msg.content += ev.text;
      msg.retry = null;
      s.waiting = null;
      return;
    case 'tool_use':
      msg.tools.push({ id: ev.id, name: ev.name, input: ev.input, state: 'running', preview: '' });
      return;
    case 'tool_result': {
      const chip = msg.tools.find((t) => t.id === ev.tool_use_id);
      if (chip) {
        chip.state = ev.is_error ? 'error' : 'ok';
        chip.preview = ev.output_preview;
      }
      return;
    }
    case 'result':
      if (ev.session_id) s.headSessionId = ev.session_id;
      finishTurn(s, msg, ev.status, ev.response, ev.error);
      return;
    case 'error': {
      if (ev.code !== 'model_retry') return;
      const attempt = Number(/retry (\d+)/i.exec(ev.message)?.[1] ?? (msg.retry?.attempt ?? 0) + 1);
      const status = /\((\d{3})\)/.exec(ev.message)?.[1];
      msg.retry = { attempt, message: `${modelTrouble(status)} — retrying (attempt ${attempt})…` };
      return;
    }
  }
}

/** The turn's run is still waiting (seen on the stored execution before the stream says so). */
export function applyWaiting(s: ChatState, executionId: string, waitingFor: string | null | undefined) {
  if (s.turn?.executionId !== executionId) return;
  if (!waitingFor) s.waiting = null;
  else if (s.waiting?.for !== waitingFor) s.waiting = { for: waitingFor, since: Date.now() };
}

/** When the events could not be followed, the stored execution tells how the turn ended. */
export function applyExecution(s: ChatState, exec: Execution) {
  const msg = assistantOf(s);
  if (!s.headSessionId && exec.claude_session_id) s.headSessionId = exec.claude_session_id;
  if (msg && s.turn?.executionId === exec.id && exec.status !== 'queued' && exec.status !== 'running') {
    finishTurn(s, msg, exec.status, exec.response ?? '', exec.error);
  }
}

function finishTurn(
  s: ChatState,
  msg: UiMessage,
  status: string,
  response: string,
  error: { code: string; message: string } | null,
) {
  if (response) msg.content = response;
  msg.retry = null;
  s.waiting = null;
  if (status === 'success') {
    msg.status = 'done';
  } else {
    msg.status = status === 'cancelled' ? 'cancelled' : 'failed';
    const raw = error ?? { code: status, message: `The turn ended with status ${status}` };
    msg.error = { code: raw.code, message: cleanErrorMessage(raw.message) };
    // The CLI often repeats its error as the reply text: say it once, in the error line.
    if (isEcho(msg.content, raw.message)) msg.content = '';
    const problem = classifyError(msg.error);
    // The message already carries a plain failure; a banner would say it a second time.
    s.problem = problem.kind === 'error' && problem.code !== 'session_busy' ? null : problem;
    if (s.turn && !msg.content) s.draft = s.turn.draft;
  }
  s.turn = null;
}

const isEcho = (content: string, message: string) => {
  const c = content.trim();
  return c !== '' && (c === message.trim() || message.includes(c) || /^API Error\b/.test(c));
};
