import type { Execution } from '@reprise/functions/schemas';
import { A, useNavigate, useParams } from '@solidjs/router';
import { createMemo, createResource, createSignal, For, Show } from 'solid-js';
import { errorMessage } from '~/api/api-error';
import { summarizeInput } from '~/components/chat/tool-chip';
import { ContextBar } from '~/components/context-bar';
import { CopyButton } from '~/components/copy-button';
import { ExecutionProgress } from '~/components/execution-progress';
import { LiveOutput } from '~/components/live-output';
import { Markdown } from '~/components/markdown';
import { StatusBadge } from '~/components/status-badge';
import { ToolTimeline } from '~/components/tool-timeline';
import { PageHeading } from '~/components/ui/page-heading';
import { ErrorState, Skeleton } from '~/components/ui/page-states';
import { RelTime } from '~/components/ui/rel-time';
import { cleanErrorMessage } from '~/lib/clean-error';
import { formatCost, formatDuration, isActive, plural, shortId } from '~/lib/format';
import { usePeople } from '~/lib/people';
import { useServices } from '~/services';

export function continueAsChatHref(exec: Execution): string {
  const q = new URLSearchParams({
    tab: 'chat',
    resumeSessionId: exec.claude_session_id ?? '',
    executionId: exec.id,
  });
  return `/agents/${encodeURIComponent(exec.agent)}?${q}`;
}

type Waiting = { waiting_for?: string | null };

export function ExecutionPage() {
  const params = useParams<{ id: string }>();
  const { api } = useServices();
  const navigate = useNavigate();
  const [exec, { refetch }] = createResource(
    () => params.id,
    (id) => api.getExecution(id),
  );
  const [actionError, setActionError] = createSignal<string | null>(null);
  // What the live stream said the run waits for; the stored execution says it on first load.
  const [liveWaiting, setLiveWaiting] = createSignal<{ for: string | null; status: string } | null>(null);
  const [woke, setWoke] = createSignal(false);

  const cancel = async (id: string) => {
    setActionError(null);
    try {
      await api.cancelExecution(id);
    } catch (err) {
      setActionError(errorMessage(err));
    }
    void refetch();
  };

  const continueAsChat = (e: Execution) => {
    // Wake early: the agent boots while the chat opens and the person types.
    api.wakeAgent(e.agent).catch(() => {});
    navigate(continueAsChatHref(e));
  };

  return (
    <main class="page">
      <Show
        when={!exec.error}
        fallback={
          <ErrorState
            page
            error={exec.error}
            what="Execution"
            backHref="/agents"
            backLabel="Back to agents"
            onRetry={() => void refetch()}
          />
        }
      >
        <Show when={exec.latest} fallback={<Skeleton label="Loading execution" rows={5} />}>
          {(e) => {
            const waitingFor = createMemo(() => {
              const live = liveWaiting();
              if (live && e().status === 'queued') return live.for;
              return (e() as Execution & Waiting).waiting_for ?? null;
            });
            const status = () => {
              const live = liveWaiting();
              return live?.status === 'running' && e().status === 'queued' ? 'running' : e().status;
            };
            return (
              <>
                <nav class="breadcrumbs" aria-label="Breadcrumbs">
                  <A href="/agents">Agents</A> /{' '}
                  <A href={`/agents/${e().agent}?tab=executions`}>{e().agent}</A> /{' '}
                  <span aria-current="page">{shortId(e().id)}</span>
                </nav>
                <header class="page-header">
                  <PageHeading title={`Execution ${shortId(e().id)}`}>Execution</PageHeading>
                  <StatusBadge status={e().status} testId="execution-status" />
                  <span class="spacer" />
                  <Show when={isActive(e().status)}>
                    <button type="button" class="button" onClick={() => void cancel(e().id)}>
                      Cancel run
                    </button>
                  </Show>
                  {/* The server decides: it knows ownership, the resume gate and the session's state. */}
                  <Show when={e().can_continue_as_chat}>
                    <button
                      type="button"
                      class="button button-primary"
                      data-testid="continue-as-chat"
                      title="Continue this execution as an interactive chat"
                      onClick={() => continueAsChat(e())}
                    >
                      Continue as Chat
                    </button>
                  </Show>
                </header>
                <ExecutionProgress status={status()} waitingFor={waitingFor()} woke={woke()} />
                <Show when={actionError()}>
                  <p class="banner banner-error" role="alert">
                    {cleanErrorMessage(actionError() ?? '')}
                  </p>
                </Show>
                <Show when={e().error}>{(err) => <ErrorCard error={err()} exec={e()} />}</Show>
                <ExecutionFacts exec={e()} />
                <Show when={isActive(e().status)}>
                  <LiveOutput
                    executionId={e().id}
                    status={e().status}
                    onWaiting={(w, st) => {
                      if (w === 'agent') setWoke(true);
                      setLiveWaiting({ for: w, status: st });
                    }}
                    onDone={() => void refetch()}
                  />
                </Show>
                <section class="card" aria-labelledby="message-title">
                  <h2 id="message-title">Message</h2>
                  <pre class="message">{e().message}</pre>
                </section>
                <Show when={e().response}>
                  {(text) => (
                    <section class="card" aria-labelledby="response-title">
                      <h2 id="response-title">Response</h2>
                      <Markdown text={text()} />
                    </section>
                  )}
                </Show>
                <section class="card" aria-labelledby="tools-title">
                  <h2 id="tools-title">Tool calls</h2>
                  <ToolTimeline calls={e().tool_calls} />
                </section>
              </>
            );
          }}
        </Show>
      </Show>
    </main>
  );
}

const ERROR_TITLES: Record<string, string> = {
  cli_failed: 'The agent’s CLI failed',
  model_error: 'The model returned an error',
  timeout: 'The run took too long',
  cancelled: 'The run was cancelled',
  session_not_found: 'The conversation to continue was not found',
  session_expired: 'The conversation to continue has expired',
  session_busy: 'Another turn was writing to this conversation',
  agent_not_running: 'The agent was not running',
  agent_unreachable: 'The agent could not be reached',
  agent_start_failed: 'The agent could not be started',
  interrupted: 'The platform stopped mid-run',
  lost: 'The run was lost',
};

/** Says why it failed: the code in words, the message, and the tool command that failed last. */
function ErrorCard(props: { error: { code: string; message: string }; exec: Execution }) {
  const failedTool = () => [...props.exec.tool_calls].reverse().find((t) => t.is_error);
  return (
    <section class="card card-error" role="alert" aria-labelledby="error-title">
      <h2 id="error-title">{ERROR_TITLES[props.error.code] ?? 'The run failed'}</h2>
      <p>
        {cleanErrorMessage(props.error.message)} <code>{props.error.code}</code>
      </p>
      <Show when={failedTool()}>
        {(tool) => (
          <>
            <h3>
              Failing step: <code>{tool().name}</code>{' '}
              <code class="wrap">{summarizeInput(tool().input)}</code>
            </h3>
            <pre class="error-output">{tool().output_preview || '(no output)'}</pre>
          </>
        )}
      </Show>
    </section>
  );
}

function ExecutionFacts(props: { exec: Execution }) {
  const e = () => props.exec;
  const people = usePeople();
  const trigger = () => {
    const t = e().triggered_by;
    if (t.kind === 'user') return people.name(t.id);
    if (t.kind === 'schedule') return 'a schedule';
    return `${t.kind} ${t.id}`;
  };
  return (
    <section class="card" aria-label="Details">
      <dl class="facts">
        <dt>Created</dt>
        <dd>
          <RelTime iso={e().created_at} />
        </dd>
        <dt>Started</dt>
        <dd>
          <Show when={e().started_at} fallback="—">
            {(at) => <RelTime iso={at()} />}
          </Show>
        </dd>
        <dt>Finished</dt>
        <dd>
          <Show when={e().finished_at} fallback="—">
            {(at) => <RelTime iso={at()} />}
          </Show>
        </dd>
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
          {trigger()} <span class="muted">· {e().source}</span>
          <Show when={e().triggered_by.kind !== 'user' || e().triggered_by.id !== e().owner_user_id}>
            <span class="muted"> · on behalf of {people.name(e().owner_user_id)}</span>
          </Show>
        </dd>
        <dt>Model</dt>
        <dd>
          {e().model ?? 'default'} · {e().num_turns === null ? '—' : plural(e().num_turns ?? 0, 'turn')}
        </dd>
        <dt>Session</dt>
        <dd>
          <Show when={e().claude_session_id} fallback="—">
            {(sid) => (
              <>
                <code class="wrap">{sid()}</code> <CopyButton text={sid()} label="Copy session id" />
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
                <A href={`/executions/${from()}`}>execution {shortId(from())}</A>
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
                      chat {shortId(c.chat_session_id)}
                    </A>{' '}
                    <span class="muted">
                      <RelTime iso={c.created_at} />
                    </span>
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
