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
export function createChatController(opts: { api: Api; agent: string; onLeaveResume?: () => void }) {
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
    const leavingResume = state.resume !== null;
    if (!o.fromList) autoSelectTried = true;
    const mine = ++epoch;
    follower?.abort();
    try {
      const chat = await api.getChat(id);
      if (mine !== epoch || (o.fromList && !rules.canAutoSelect(state))) return;
      update((s) => rules.loadChat(s, chat));
      if (leavingResume) opts.onLeaveResume?.();
    } catch (err) {
      if (mine === epoch)
        setState('problem', { kind: 'error', code: 'load_failed', message: errorMessage(err) });
    }
  }

  function newChat() {
    const leavingResume = state.resume !== null;
    switchConversation(rules.startNewChat);
    if (leavingResume) opts.onLeaveResume?.();
  }

  function enterResume(resume: rules.ResumeContext) {
    if (rules.isSameResume(state, resume)) return;
    switchConversation((s) => rules.enterResume(s, resume));
  }

  async function send() {
    const message = state.draft.trim();
    if (!message || state.turn) return;
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
    update((s) => rules.turnAccepted(s, accepted));
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
    try {
      await api.cancelExecution(turn.executionId);
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

  return {
    state,
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
