import type { Execution } from '@reprise/functions/schemas';
import { A, useNavigate, useParams } from '@solidjs/router';
import { createResource, createSignal, For, Show } from 'solid-js';
import { errorMessage } from '~/api/api-error';
import { ContextBar } from '~/components/context-bar';
import { CopyButton } from '~/components/copy-button';
import { LiveOutput } from '~/components/live-output';
import { Markdown } from '~/components/markdown';
import { StatusBadge } from '~/components/status-badge';
import { ToolTimeline } from '~/components/tool-timeline';
import { formatCost, formatDuration, formatTime, isActive } from '~/lib/format';
import { useServices } from '~/services';

export function continueAsChatHref(exec: Execution): string {
  const q = new URLSearchParams({
    tab: 'chat',
    resumeSessionId: exec.claude_session_id ?? '',
    executionId: exec.id,
  });
  return `/agents/${encodeURIComponent(exec.agent)}?${q}`;
}

export function ExecutionPage() {
  const params = useParams<{ id: string }>();
  const { api } = useServices();
  const navigate = useNavigate();
  const [exec, { refetch }] = createResource(
    () => params.id,
    (id) => api.getExecution(id),
  );
  const [actionError, setActionError] = createSignal<string | null>(null);

  const cancel = async (id: string) => {
    setActionError(null);
    try {
      await api.cancelExecution(id);
    } catch (err) {
      setActionError(errorMessage(err));
    }
    void refetch();
  };

  return (
    <main class="page">
      <Show when={!exec.error} fallback={<p class="banner banner-error">{errorMessage(exec.error)}</p>}>
        <Show when={exec.latest} fallback={<p class="empty">Loading execution…</p>}>
          {(e) => (
            <>
              <nav class="breadcrumbs" aria-label="Breadcrumbs">
                <A href="/agents">Agents</A> / <A href={`/agents/${e().agent}?tab=executions`}>{e().agent}</A>{' '}
                / <span>{e().id.slice(0, 8)}…</span>
              </nav>
              <header class="page-header">
                <h1>Execution</h1>
                <StatusBadge status={e().status} testId="execution-status" />
                <span class="spacer" />
                <Show when={isActive(e().status)}>
                  <button type="button" class="button" onClick={() => void cancel(e().id)}>
                    Cancel
                  </button>
                </Show>
                {/* The server decides: it knows ownership, the resume gate and the session's state. */}
                <Show when={e().can_continue_as_chat}>
                  <button
                    type="button"
                    class="button button-primary"
                    data-testid="continue-as-chat"
                    title="Continue this execution as an interactive chat"
                    onClick={() => navigate(continueAsChatHref(e()))}
                  >
                    Continue as Chat
                  </button>
                </Show>
              </header>
              <Show when={actionError()}>
                <p class="banner banner-error" role="alert">
                  {actionError()}
                </p>
              </Show>
              <ExecutionFacts exec={e()} />
              <Show when={isActive(e().status)}>
                <LiveOutput executionId={e().id} status={e().status} onDone={() => void refetch()} />
              </Show>
              <section class="card">
                <h2>Message</h2>
                <pre class="message">{e().message}</pre>
              </section>
              <Show when={e().error}>
                {(err) => (
                  <section class="card card-error" role="alert">
                    <h2>Error</h2>
                    <p>
                      <code>{err().code}</code> {err().message}
                    </p>
                  </section>
                )}
              </Show>
              <Show when={e().response}>
                {(text) => (
                  <section class="card">
                    <h2>Response</h2>
                    <Markdown text={text()} />
                  </section>
                )}
              </Show>
              <section class="card">
                <h2>Tool calls</h2>
                <ToolTimeline calls={e().tool_calls} />
              </section>
            </>
          )}
        </Show>
      </Show>
    </main>
  );
}

function ExecutionFacts(props: { exec: Execution }) {
  const e = () => props.exec;
  return (
    <section class="card">
      <dl class="facts">
        <dt>Created</dt>
        <dd>{formatTime(e().created_at)}</dd>
        <dt>Started</dt>
        <dd>{formatTime(e().started_at)}</dd>
        <dt>Finished</dt>
        <dd>{formatTime(e().finished_at)}</dd>
        <dt>Duration</dt>
        <dd>{formatDuration(e().duration_ms)}</dd>
        <dt>Cost</dt>
        <dd>{formatCost(e().cost_usd)}</dd>
        <dt>Context</dt>
        <dd>
          <ContextBar used={e().context_used} max={e().context_max} />
        </dd>
        <dt>Triggered by</dt>
        <dd>
          {e().source} · {e().triggered_by.kind} {e().triggered_by.id} · owner {e().owner_user_id}
        </dd>
        <dt>Model</dt>
        <dd>
          {e().model ?? 'default'} · {e().num_turns ?? '—'} turns
        </dd>
        <dt>Session</dt>
        <dd>
          <Show when={e().claude_session_id} fallback="—">
            {(sid) => (
              <>
                <code>{sid()}</code> <CopyButton text={sid()} />
                <Show when={e().forked}>
                  <span class="muted"> (forked)</span>
                </Show>
              </>
            )}
          </Show>
        </dd>
        <Show when={e().resumed_from_execution_id}>
          {(from) => (
            <>
              <dt>Continued from</dt>
              <dd>
                <A href={`/executions/${from()}`}>execution {from().slice(0, 8)}…</A>
              </dd>
            </>
          )}
        </Show>
        <Show when={e().chat_session_id}>
          {(chatId) => (
            <>
              <dt>Chat</dt>
              <dd>
                <A href={`/agents/${e().agent}?tab=chat&chatId=${chatId()}`}>open chat</A>
              </dd>
            </>
          )}
        </Show>
        <Show when={e().continued_in.length > 0}>
          <dt>Continued in</dt>
          <dd>
            <ul class="plain">
              <For each={e().continued_in}>
                {(c) => (
                  <li>
                    <A href={`/agents/${e().agent}?tab=chat&chatId=${c.chat_session_id}`}>
                      chat {c.chat_session_id.slice(0, 8)}…
                    </A>{' '}
                    <span class="muted">{formatTime(c.created_at)}</span>
                  </li>
                )}
              </For>
            </ul>
          </dd>
        </Show>
      </dl>
    </section>
  );
}
