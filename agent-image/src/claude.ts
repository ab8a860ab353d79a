import { join } from 'node:path';
import { buildClaudeArgs } from './claude-args';
import { startWarmClaude } from './claude-warm';
import { type CliOptions, type Runtime, runParsedTurn } from './runtime';
import { createStreamParser } from './stream-parser';

/** HOME holds `.claude/`; Claude keys its sessions by the cwd. */
export interface ClaudeOptions extends CliOptions {
  isRoot?: boolean;
}

/** Claude's project folder name: the cwd with every non-alphanumeric character replaced by `-`. */
export const projectDirName = (cwd: string): string => cwd.replace(/[^A-Za-z0-9]/g, '-');

export const claudeEnv = (options: ClaudeOptions): Record<string, string> => ({
  HOME: options.home,
  PATH: options.path ?? '/usr/local/bin:/usr/bin:/bin',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  // Without a real key the CLI talks to the scripted model; it refuses to start with no key at all.
  ANTHROPIC_API_KEY: options.apiKey ?? 'scripted-model-dummy-key',
  ...(options.baseUrl ? { ANTHROPIC_BASE_URL: options.baseUrl } : {}),
  ...(options.maxRetries === undefined ? {} : { CLAUDE_CODE_MAX_RETRIES: String(options.maxRetries) }),
  // As root (local dev, CI) the CLI refuses --dangerously-skip-permissions outside a declared sandbox.
  ...(options.isRoot ? { IS_SANDBOX: '1' } : {}),
});

export const createClaudeRuntime = (options: ClaudeOptions): Runtime => {
  const projects = join(options.home, '.claude', 'projects', projectDirName(options.workdir));
  return {
    name: 'claude',
    transcriptPath: (sessionId) => join(projects, `${sessionId}.jsonl`),
    run: (spec, io) =>
      runParsedTurn(
        options,
        { args: buildClaudeArgs(spec), env: claudeEnv(options), parser: createStreamParser() },
        spec,
        io,
      ),
    startWarm: (spec) =>
      startWarmClaude(
        {
          bin: options.bin,
          workdir: options.workdir,
          env: claudeEnv(options),
          killGraceMs: options.killGraceMs,
        },
        spec,
      ),
  };
};
