import type { RunSpec } from './runtime';

/**
 * The claude CLI flags for one turn. The prompt is never among them: it goes to stdin, as plain
 * text, or with `streamInput` as one stream-json message per turn to a process that stays alive.
 */
export const buildClaudeArgs = (spec: RunSpec, options: { streamInput?: boolean } = {}): string[] => {
  const args = [
    '--print',
    // The echo of each message (with our uuid) marks where that turn's output begins.
    ...(options.streamInput ? ['--input-format', 'stream-json', '--replay-user-messages'] : []),
    '--output-format',
    'stream-json',
    '--verbose',
    '--include-partial-messages',
    '--dangerously-skip-permissions',
  ];
  // `--session-id` only names new sessions; combined with `--resume` the CLI rejects it.
  if (spec.resume) {
    args.push('--resume', spec.sessionId);
    if (spec.forkSession) args.push('--fork-session');
  } else {
    args.push('--session-id', spec.sessionId);
  }
  // `--flag=value`: a caller's value that starts with `-` can never be read as another flag.
  if (spec.model) args.push(`--model=${spec.model}`);
  if (spec.allowedTools && spec.allowedTools.length > 0) {
    // With --dangerously-skip-permissions, --allowedTools alone restricts nothing: --tools is what
    // removes the other built-in tools. Rules like `Bash(git *)` name their tool before the `(`.
    const tools = [...new Set(spec.allowedTools.map((rule) => rule.replace(/\(.*$/, '').trim()))];
    args.push(`--tools=${tools.join(',')}`, `--allowedTools=${spec.allowedTools.join(',')}`);
  }
  if (spec.systemPrompt) args.push(`--append-system-prompt=${spec.systemPrompt}`);
  if (spec.maxTurns !== undefined) args.push(`--max-turns=${spec.maxTurns}`);
  return args;
};
