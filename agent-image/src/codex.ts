import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCodexParser } from './codex-stream';
import { type CliOptions, type RunSpec, type Runtime, runParsedTurn } from './runtime';
import { findFile } from './session-files';

/** `CODEX_HOME` is `<home>/.codex`; `baseUrl` is an OpenAI Responses API endpoint. */
export type CodexOptions = CliOptions;

const PROVIDER = 'reprise';

/** `-c key=value` pairs: values are TOML, so strings are quoted with JSON's escaping (valid TOML basic strings). */
const config = (pairs: Record<string, string | number | boolean>): string[] =>
  Object.entries(pairs).flatMap(([key, value]) => [
    '-c',
    `${key}=${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
  ]);

/** The codex CLI arguments for one turn. The prompt is never among them: `-` reads it from stdin. */
export const buildCodexArgs = (spec: RunSpec, options: Pick<CodexOptions, 'baseUrl' | 'maxRetries'>) => {
  const args = [
    'exec',
    '--json',
    '--skip-git-repo-check',
    // The agent's container is the sandbox, as with claude's --dangerously-skip-permissions.
    '--dangerously-bypass-approvals-and-sandbox',
    ...config({
      check_for_update_on_startup: false,
      'analytics.enabled': false,
      'feedback.enabled': false,
    }),
  ];
  if (options.baseUrl) {
    args.push(
      ...config({
        model_provider: PROVIDER,
        [`model_providers.${PROVIDER}.name`]: PROVIDER,
        [`model_providers.${PROVIDER}.base_url`]: `${options.baseUrl.replace(/\/$/, '')}/v1`,
        [`model_providers.${PROVIDER}.wire_api`]: 'responses',
        [`model_providers.${PROVIDER}.env_key`]: 'OPENAI_API_KEY',
      }),
    );
  }
  if (options.maxRetries !== undefined) {
    const provider = options.baseUrl ? PROVIDER : 'openai';
    args.push(
      ...config({
        [`model_providers.${provider}.request_max_retries`]: options.maxRetries,
        [`model_providers.${provider}.stream_max_retries`]: options.maxRetries,
      }),
    );
  }
  // `--flag=value`: a caller's value that starts with `-` can never be read as another flag.
  const model = spec.model ?? (options.baseUrl ? 'scripted' : undefined);
  if (model) args.push(`--model=${model}`);
  if (spec.systemPrompt) args.push(...config({ developer_instructions: spec.systemPrompt }));
  if (spec.resume) args.push(spec.forkSession ? 'fork' : 'resume', spec.sessionId);
  args.push('-');
  return args;
};

export const codexEnv = (options: CodexOptions): Record<string, string> => ({
  HOME: options.home,
  CODEX_HOME: join(options.home, '.codex'),
  PATH: options.path ?? '/usr/local/bin:/usr/bin:/bin',
  // Without a real key codex talks to the scripted model, which ignores the key.
  OPENAI_API_KEY: options.apiKey ?? 'scripted-model-dummy-key',
  NO_COLOR: '1',
});

/**
 * codex names a rollout `sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl` and remembers that
 * path in its state database, so a restored rollout must land where it was; the adapter notes the
 * path once it saw it. With no note (the whole HOME was lost, database included) codex finds a
 * rollout by scanning, and any dated folder will do.
 */
const rolloutLocator = (home: string) => {
  const sessions = join(home, '.codex', 'sessions');
  const notes = join(home, '.reprise', 'codex-rollouts');
  return (sessionId: string): string => {
    const found = findFile(
      sessions,
      (name) => name.startsWith('rollout-') && name.endsWith(`-${sessionId}.jsonl`),
    );
    const note = join(notes, sessionId);
    if (found) {
      mkdirSync(notes, { recursive: true });
      writeFileSync(note, found);
      return found;
    }
    try {
      return readFileSync(note, 'utf8');
    } catch {
      return join(sessions, '1970', '01', '01', `rollout-1970-01-01T00-00-00-${sessionId}.jsonl`);
    }
  };
};

/** OpenAI's codex CLI. It picks its own thread ids; forks are native (`codex exec fork`). */
export const createCodexRuntime = (options: CodexOptions): Runtime => {
  mkdirSync(join(options.home, '.codex'), { recursive: true });
  return {
    name: 'codex',
    transcriptPath: rolloutLocator(options.home),
    run: (spec, io) =>
      runParsedTurn(
        options,
        { args: buildCodexArgs(spec, options), env: codexEnv(options), parser: createCodexParser() },
        spec,
        io,
      ),
  };
};
