import type { ToolChip as Chip } from './chat-state';

export function summarizeInput(input: unknown): string {
  if (input && typeof input === 'object') {
    const obj = input as Record<string, unknown>;
    const first = obj.command ?? obj.file_path ?? obj.pattern ?? obj.url ?? obj.description;
    if (typeof first === 'string') return first;
  }
  const text = JSON.stringify(input) ?? '';
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

export function ToolChip(props: { chip: Chip }) {
  return (
    <details class={`tool-chip tool-${props.chip.state}`}>
      <summary>
        <span class="tool-name">{props.chip.name}</span> <code>{summarizeInput(props.chip.input)}</code>
        <span class="tool-state">
          {props.chip.state === 'running' ? '…' : props.chip.state === 'ok' ? '✓' : '✗'}
        </span>
      </summary>
      <pre>{props.chip.preview || 'No output yet'}</pre>
    </details>
  );
}
