export function ResumeBanner(props: { executionId: string | null; onDismiss: () => void }) {
  return (
    <div class="banner banner-info" data-testid="resume-banner" role="status">
      <span>
        Continuing from execution <code>{(props.executionId ?? '').slice(0, 8)}…</code> — the agent has full
        context from that execution.
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
