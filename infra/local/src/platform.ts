import { join, resolve } from 'node:path';
import { lifecycleConfigFromEnv } from '@reprise/functions/core/agent-lifecycle';
import type { CoreDeps } from '@reprise/functions/core/deps';
import { inProcessEventSignal } from '@reprise/functions/core/event-signals';
import { type Clock, systemClock } from '@reprise/functions/core/ports';
import type { Db } from '@reprise/functions/data/client';
import { createStores } from '@reprise/functions/data/create-stores';
import { dirPayloadStore } from '@reprise/functions/data/payloads/dir';
import { AgentClient } from '@reprise/functions/fleet/agent-client';
import { LocalAgentFleet } from '@reprise/functions/fleet/local';
import type { Logger } from '@reprise/functions/lib/log';
import { inProcessDispatcher } from '@reprise/functions/runner/dispatchers';
import { runExecution } from '@reprise/functions/runner/run-execution';

export interface LocalPlatform {
  readonly core: CoreDeps;
  readonly fleet: LocalAgentFleet;
  /** Waits for every in-flight run (tests, shutdown). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/** The agent server as a process; `tsx` runs its TypeScript directly. */
export const AGENT_SERVER_COMMAND = [process.execPath, '--import', 'tsx', resolve('agent-image/src/main.ts')];

/**
 * The platform core wired with local stand-ins: agent processes for ECS, an in-process dispatcher
 * for the async Lambda invoke, an in-process signal so event streams wake instantly.
 */
export function createLocalPlatform(options: {
  db: Db;
  dataDir: string;
  modelUrl: string | null;
  logger: Logger;
  clock?: Clock;
  /** Replaces the agent server command (tests prove a failing start is reported). */
  agentCommand?: readonly string[];
}): LocalPlatform {
  // A real key means the user wants the real model; otherwise the scripted one answers.
  const modelEnv: Record<string, string> = process.env.ANTHROPIC_API_KEY
    ? { ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY }
    : options.modelUrl
      ? { ANTHROPIC_BASE_URL: options.modelUrl }
      : {};
  // The scripted model also speaks the OpenAI Responses and Gemini APIs, for codex and gemini agents.
  const keyOrModel = (key: string, urlVar: string): Record<string, string> => {
    const value = process.env[key];
    if (value) return { [key]: value };
    return options.modelUrl ? { [urlVar]: options.modelUrl } : {};
  };
  const otherModels = {
    ...keyOrModel('OPENAI_API_KEY', 'OPENAI_BASE_URL'),
    ...keyOrModel('GEMINI_API_KEY', 'GOOGLE_GEMINI_BASE_URL'),
  };
  const fleet = new LocalAgentFleet({
    command: options.agentCommand ?? AGENT_SERVER_COMMAND,
    baseDir: options.dataDir,
    env: {
      ...modelEnv,
      ...otherModels,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      // `AGENT_SANDBOX=none npm start` turns the agents' confinement off (agent-image/src/sandbox.ts).
      ...(process.env.AGENT_SANDBOX ? { AGENT_SANDBOX: process.env.AGENT_SANDBOX } : {}),
      // Lets a browser test see the CLI's model retries end in seconds rather than minutes.
      ...(process.env.CLAUDE_CODE_MAX_RETRIES
        ? { CLAUDE_CODE_MAX_RETRIES: process.env.CLAUDE_CODE_MAX_RETRIES }
        : {}),
    },
    logger: options.logger,
  });
  // The local stand-in for the payload bucket, with every other byte of state under dataDir.
  const stores = createStores(options.db, dirPayloadStore(join(options.dataDir, 'payloads')));
  // The runner dispatches the next queued run itself, so it needs the dispatcher it is run by.
  let core: CoreDeps;
  const dispatcher = inProcessDispatcher((job) => runExecution(core, job), options.logger);
  core = {
    stores,
    fleet,
    agentClient: new AgentClient(),
    signal: inProcessEventSignal(),
    clock: options.clock ?? systemClock,
    logger: options.logger,
    dispatcher,
    lifecycle: lifecycleConfigFromEnv(process.env),
  };
  return {
    core,
    fleet,
    drain: () => dispatcher.drain(),
    async close() {
      await fleet.close();
      await dispatcher.drain();
    },
  };
}
