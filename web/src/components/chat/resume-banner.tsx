import { A } from '@solidjs/router';
import { shortId } from '~/lib/format';

/** Shown only once the server confirmed the execution can be continued: then the promise holds. */
export function ResumeBanner(props: { executionId: string | null; onDismiss: () => void }) {
  return (
    <div class="banner banner-info" data-testid="resume-banner" role="status">
      <span>
        Continuing from execution{' '}
        <A href={`/executions/${props.executionId ?? ''}`} title="Open the execution">
          <code>{shortId(props.executionId ?? '')}</code>
        </A>{' '}
        — the agent has full context from that execution.
      </span>
      <button
        type="button"
        class="icon-button"
        data-testid="resume-banner-dismiss"
        aria-label="Dismiss"
        onClick={() => props.onDismiss()}
      >
        ×
      </button>
    </div>
  );
}

/** The deep link cannot be continued: said at once, before the person types anything. */
export function ResumeRefused(props: { executionId: string | null; reason: string; onNewChat: () => void }) {
  return (
    <div class="banner banner-warn" data-testid="resume-refused" role="alert">
      <span>
        This execution cannot be continued as a chat. {props.reason}{' '}
        {props.executionId ? <A href={`/executions/${props.executionId}`}>Open the execution</A> : null}
      </span>
      <button type="button" class="button" onClick={() => props.onNewChat()}>
        Start a new chat
      </button>
    </div>
  );
}
