import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AGENT_PORT } from '@reprise/functions/agent-events';
import { integer, required } from '@reprise/functions/lib/env';

export type ArchiveConfig = { kind: 'dir'; dir: string } | { kind: 's3'; bucket: string; prefix: string };

/** Which coding-agent CLI this agent server runs (the agent's `runtime`). */
export type RuntimeName = 'claude' | 'codex' | 'gemini';

export interface AgentConfig {
  port: number;
  runtime: RuntimeName;
  codexBin: string;
  geminiBin: string;
  /** OpenAI Responses API endpoint for codex (the scripted model locally). */
  openaiBaseUrl?: string;
  openaiApiKey?: string;
  /** Gemini API endpoint for gemini-cli (the scripted model locally). */
  geminiBaseUrl?: string;
  geminiApiKey?: string;
  token: string;
  home: string;
  workdir: string;
  archive: ArchiveConfig;
  claudeBin: string;
  anthropicBaseUrl?: string;
  anthropicApiKey?: string;
  /** SIGTERM → SIGKILL delay for a CLI process group. */
  killGraceMs: number;
  /** Model API retries of the CLI (its default is 10 with backoff); fault tests set 0. */
  claudeMaxRetries?: number;
  /** How long SIGTERM waits for cancelled runs to write their results before exiting. */
  shutdownGraceMs: number;
  /** Idle CLI processes kept between chat turns (0: every turn starts a CLI). */
  warmPoolSize: number;
  /** An idle warm process exits after this many seconds without a turn. */
  warmIdleSeconds: number;
}

type Env = Record<string, string | undefined>;

/** The CLI shipped with this package; in the image it is installed globally instead and found on PATH. */
const defaultClaudeBin = (): string => {
  try {
    const manifest = createRequire(import.meta.url).resolve('@anthropic-ai/claude-code/package.json');
    const bin = join(dirname(manifest), 'bin', 'claude.exe');
    return existsSync(bin) ? bin : 'claude';
  } catch {
    return 'claude';
  }
};

/** An npm-installed CLI's entry script, else the bare name (the image installs it globally). */
const packageBin = (pkg: string, file: string, name: string): string => {
  try {
    return join(dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), file);
  } catch {
    return name;
  }
};

const runtimeOf = (env: Env): RuntimeName => {
  const raw = env.AGENT_RUNTIME || 'claude';
  if (raw === 'claude' || raw === 'codex' || raw === 'gemini') return raw;
  throw new Error(`Environment variable AGENT_RUNTIME must be claude, codex or gemini, got "${raw}"`);
};

const archiveConfig = (env: Env): ArchiveConfig => {
  if (env.ARCHIVE_BUCKET) return { kind: 's3', bucket: env.ARCHIVE_BUCKET, prefix: env.ARCHIVE_PREFIX ?? '' };
  if (env.ARCHIVE_DIR) return { kind: 'dir', dir: env.ARCHIVE_DIR };
  throw new Error('Environment variable ARCHIVE_DIR or ARCHIVE_BUCKET is required');
};

export const loadConfig = (env: Env = process.env): AgentConfig => ({
  port: integer(env, 'PORT', AGENT_PORT, 0, 65_535),
  runtime: runtimeOf(env),
  codexBin: env.CODEX_BIN || packageBin('@openai/codex', 'bin/codex.js', 'codex'),
  geminiBin: env.GEMINI_BIN || packageBin('@google/gemini-cli', 'bundle/gemini.js', 'gemini'),
  ...(env.OPENAI_BASE_URL ? { openaiBaseUrl: env.OPENAI_BASE_URL } : {}),
  ...(env.OPENAI_API_KEY ? { openaiApiKey: env.OPENAI_API_KEY } : {}),
  ...(env.GOOGLE_GEMINI_BASE_URL ? { geminiBaseUrl: env.GOOGLE_GEMINI_BASE_URL } : {}),
  ...(env.GEMINI_API_KEY ? { geminiApiKey: env.GEMINI_API_KEY } : {}),
  token: required(env, 'AGENT_TOKEN'),
  home: required(env, 'AGENT_HOME'),
  workdir: required(env, 'AGENT_WORKDIR'),
  archive: archiveConfig(env),
  claudeBin: env.CLAUDE_BIN || defaultClaudeBin(),
  ...(env.ANTHROPIC_BASE_URL ? { anthropicBaseUrl: env.ANTHROPIC_BASE_URL } : {}),
  ...(env.ANTHROPIC_API_KEY ? { anthropicApiKey: env.ANTHROPIC_API_KEY } : {}),
  killGraceMs: integer(env, 'KILL_GRACE_MS', 5_000, 0, 600_000),
  ...(env.CLAUDE_CODE_MAX_RETRIES
    ? { claudeMaxRetries: integer(env, 'CLAUDE_CODE_MAX_RETRIES', 10, 0, 100) }
    : {}),
  shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
  warmPoolSize: integer(env, 'WARM_POOL_SIZE', 4, 0, 64),
  warmIdleSeconds: integer(env, 'WARM_IDLE_SECONDS', 600, 1, 86_400),
});
