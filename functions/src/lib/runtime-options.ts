import { ValidationError } from './errors';
import type { Runtime } from './schemas/agents';

type TaskOption = 'allowed_tools' | 'system_prompt' | 'max_turns';

/**
 * Task options a runtime's CLI has no equivalent for (docs/design.md, "Runtime adapters"):
 * codex has no tool allowlist or turn limit; gemini-cli has neither nor an appendable system prompt.
 */
export const UNSUPPORTED_TASK_OPTIONS: Record<Runtime, readonly TaskOption[]> = {
  claude: [],
  codex: ['allowed_tools', 'max_turns'],
  gemini: ['allowed_tools', 'system_prompt', 'max_turns'],
};

/**
 * Refuses, with 400 validation_error, a task whose options this runtime cannot honour, rather
 * than running it without them. The API checks it against the agent's runtime, and the agent
 * server again against the CLI it runs.
 */
export const assertTaskOptionsSupported = (
  runtime: string,
  task: Partial<Record<TaskOption, unknown>>,
): void => {
  const unsupported = (UNSUPPORTED_TASK_OPTIONS[runtime as Runtime] ?? []).filter(
    (option) => task[option] !== undefined,
  );
  if (unsupported.length === 0) return;
  throw new ValidationError(
    `The ${runtime} runtime cannot honour ${unsupported.join(', ')}`,
    unsupported.map((path) => ({ path, message: `not supported by the ${runtime} runtime` })),
  );
};
