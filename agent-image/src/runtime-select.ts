import { createClaudeRuntime } from './claude';
import { createCodexRuntime } from './codex';
import type { AgentConfig } from './config';
import { createGeminiRuntime } from './gemini';
import type { Runtime } from './runtime';

/** The one place that maps the agent's `runtime` to its adapter; every CLI keeps its state under the agent's HOME. */
export const runtimeFor = (config: AgentConfig, path = process.env.PATH): Runtime => {
  const common = { home: config.home, workdir: config.workdir, killGraceMs: config.killGraceMs, path };
  const retries = config.claudeMaxRetries === undefined ? {} : { maxRetries: config.claudeMaxRetries };
  switch (config.runtime) {
    case 'codex':
      return createCodexRuntime({
        ...common,
        ...retries,
        bin: config.codexBin,
        ...(config.openaiBaseUrl ? { baseUrl: config.openaiBaseUrl } : {}),
        ...(config.openaiApiKey ? { apiKey: config.openaiApiKey } : {}),
      });
    case 'gemini':
      return createGeminiRuntime({
        ...common,
        bin: config.geminiBin,
        ...(config.geminiBaseUrl ? { baseUrl: config.geminiBaseUrl } : {}),
        ...(config.geminiApiKey ? { apiKey: config.geminiApiKey } : {}),
      });
    default:
      return createClaudeRuntime({
        ...common,
        ...retries,
        bin: config.claudeBin,
        baseUrl: config.anthropicBaseUrl,
        apiKey: config.anthropicApiKey,
        isRoot: process.getuid?.() === 0,
      });
  }
};
