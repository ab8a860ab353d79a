import type { ChatSummary } from '@reprise/functions/schemas';
import { createSignal, onCleanup } from 'solid-js';
import { createStore, produce } from 'solid-js/store';
import { ApiError, errorMessage } from '~/api/api-error';
import type { Api } from '~/api/client';
import { followEvents } from '~/api/events';
import * as rules from './chat-state';

export type ChatController = ReturnType<typeof createChatController>;

/**
 * The chat tab's side effects around the pure rules in chat-state.ts. Every conversation switch
 * (resume, new chat, select) bumps an epoch so late answers from the old one are dropped.
 */
export function createChatController(opts: {
  api: Api;
  agent: string;
  /**
   * The conversation shown changed (a chat selected or created by a turn, or a new empty one):
   * the URL names it from now on, so a reload shows the same conversation, never a new fork.
   */
  onConversation?: (chatId: string | null) => void;
}) {
  const { api, agent } = opts;
  const [state, setState] = createStore<rules.ChatState>(rules.initialChatState());
  const [chats, setChats] = createSignal<ChatSummary[]>([]);
  const [chatsLoading, setChatsLoading] = createSignal(false);
  let epoch = 0;
  let follower: AbortController | null = null;
  let stopRequested = false;
  let autoSelectTried = false;

  const update = (fn: (s: rules.ChatState) => void) => setState(produce(fn));

  function switchConversation(fn: (s: rules.ChatState) => void) {
    epoch++;
    follower?.abort();
    follower = null;
    stopRequested = false;
    update(fn);
  }

  async function loadChats() {
    setChatsLoading(true);
    try {
      const list = await api.listChats(agent);
      setChats(list.items);
      const newest = list.items[0];
      // Auto-selecting while a resume is pending would swap the execution's session for an
      // older chat's and silently drop the resume.
      if (!autoSelectTried && newest && rules.canAutoSelect(state)) {
        autoSelectTried = true;
        await selectChat(newest.id, { fromList: true });
      }
    } catch {
      // The list is a convenience; a failure leaves the current conversation usable.
    } finally {
      setChatsLoading(false);
    }
  }

  async function selectChat(id: string, o: { fromList?: boolean } = {}) {
    if (!o.fromList) autoSelectTried = true;
    const mine = ++epoch;
    follower?.abort();
    try {
      const chat = await api.getChat(id);
      if (mine !== epoch || (o.fromList && !rules.canAutoSelect(state))) return;
      update((s) => rules.loadChat(s, chat));
      opts.onConversation?.(chat.id);
    } catch (err) {
      if (mine === epoch)
        setState('problem', { kind: 'error', code: 'load_failed', message: errorMessage(err) });
    }
  }

  function newChat() {
    switchConversation(rules.startNewChat);
    opts.onConversation?.(null);
  }

  function enterResume(resume: rules.ResumeContext) {
    if (rules.isSameResume(state, resume)) return;
    switchConversation((s) => rules.enterResume(s, resume));
    void checkResume(resume, epoch);
  }

  /**
   * Ask before promising: the execution must exist for this person, name this session and pass
   * the server's resume gate (`can_continue_as_chat`), else the refusal shows before any send.
   */
  async function checkResume(resume: rules.ResumeContext, mine: number) {
    const refuse = (reason: string) => {
      if (mine === epoch) setState('resumeCheck', { state: 'refused', reason });
    };
    if (!resume.executionId) return refuse('The link does not say which execution to continue.');
    try {
      const exec = await api.getExecution(resume.executionId);
      if (exec.agent !== agent || exec.claude_session_id !== resume.sessionId)
        return refuse('The link does not match that execution.');
      if (!exec.can_continue_as_chat)
        return refuse(
          exec.status === 'queued' || exec.status === 'running'
            ? 'That execution is still running; continue it once it has finished.'
            : 'You cannot continue that execution as a chat.',
        );
      if (mine === epoch) setState('resumeCheck', { state: 'ok' });
    } catch (err) {
      refuse(
        err instanceof ApiError && err.status === 404
          ? 'That execution does not exist, or you do not have access to it.'
          : `The execution could not be checked: ${errorMessage(err)}`,
      );
    }
  }

  async function send() {
    const message = state.draft.trim();
    if (!message || state.turn || state.resumeCheck.state === 'refused') return;
    const body = rules.nextTaskRequest(state, message);
    const mine = epoch;
    stopRequested = false;
    update((s) => rules.beginTurn(s, message));
    let accepted: Awaited<ReturnType<Api['runTask']>>;
    try {
      accepted = await api.runTask(agent, body);
    } catch (err) {
      if (mine !== epoch) return;
      const e = err instanceof ApiError ? err : { code: 'network_error', message: errorMessage(err) };
      update((s) => rules.turnRejected(s, e));
      return;
    }
    if (mine !== epoch) return;
    const chatBefore = state.chatId;
    update((s) => rules.turnAccepted(s, accepted));
    const waitingFor = (accepted as { waiting_for?: string | null }).waiting_for;
    if (waitingFor) update((s) => rules.applyWaiting(s, accepted.execution_id, waitingFor));
    if (state.chatId && state.chatId !== chatBefore) opts.onConversation?.(state.chatId);
    if (stopRequested) return void stop();
    await follow(accepted.execution_id, mine);
  }

  async function follow(executionId: string, mine: number) {
    const ctrl = new AbortController();
    follower = ctrl;
    let finished = false;
    try {
      finished = await followEvents(api, executionId, {
        signal: ctrl.signal,
        onEvent: (ev) => {
          if (mine === epoch) update((s) => rules.applyEvent(s, ev.data));
        },
      });
    } catch {
      finished = false;
    }
    if (mine !== epoch || ctrl.signal.aborted) return;
    // The stored execution settles what the stream did not: a run that ended without a result
    // event, or a fork that never reported its session id.
    if (!finished || state.turn?.executionId === executionId || !state.headSessionId) {
      try {
        const exec = await api.getExecution(executionId);
        if (mine === epoch) update((s) => rules.applyExecution(s, exec));
      } catch {
        // Keep what the stream gave us; the next send reports any problem.
      }
    }
    if (mine === epoch) void loadChats();
  }

  async function stop() {
    const turn = state.turn;
    if (!turn) return;
    if (!turn.executionId) {
      stopRequested = true;
      return;
    }
    follower?.abort();
    follower = null;
    update(rules.turnStopped);
    const mine = epoch;
    try {
      await api.cancelExecution(turn.executionId);
      if (mine === epoch) void loadChats();
    } catch (err) {
      // 409: it finished first. Nothing to undo; the draft is back in the box either way.
      if (!(err instanceof ApiError && err.code === 'conflict')) {
        setState('problem', { kind: 'error', code: 'cancel_failed', message: errorMessage(err) });
      }
    }
  }

  onCleanup(() => {
    epoch++;
    follower?.abort();
  });

  /** Wake early: the agent starts while the person types. A failure here is not theirs to see. */
  function wake() {
    api.wakeAgent(agent).catch(() => {});
  }

  return {
    state,
    wake,
    chats,
    chatsLoading,
    loadChats,
    selectChat: (id: string) => selectChat(id),
    newChat,
    enterResume,
    send,
    stop,
    dismissBanner: () => update(rules.dismissBanner),
    setDraft: (text: string) => setState('draft', text),
    clearProblem: () => setState('problem', null),
  };
}
