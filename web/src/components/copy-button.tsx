import { createSignal } from 'solid-js';

export function CopyButton(props: { text: string; label?: string }) {
  const [copied, setCopied] = createSignal(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      setCopied(false);
    }
  };
  return (
    <button type="button" class="button button-small" onClick={() => void copy()} aria-live="polite">
      {copied() ? 'Copied' : (props.label ?? 'Copy')}
    </button>
  );
}
