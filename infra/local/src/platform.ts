import { resolve } from 'node:path';
import type { CoreDeps } from '@reprise/functions/core/deps';
import { inProcessEventSignal } from '@reprise/functions/core/event-signals';
import { type Clock, systemClock } from '@reprise/functions/core/ports';
import type { Db } from '@reprise/functions/data/client';
import { createStores } from '@reprise/functions/data/create-stores';
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
}): LocalPlatform {
  // A real key means the user wants the real model; otherwise the scripted one answers.
  const modelEnv: Record<string, string> = process.env.ANTHROPIC_API_KEY
    ? { ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY }
    : options.modelUrl
      ? { ANTHROPIC_BASE_URL: options.modelUrl }
      : {};
  const fleet = new LocalAgentFleet({
    command: AGENT_SERVER_COMMAND,
    baseDir: options.dataDir,
    env: {
      ...modelEnv,
      // Lets a browser test see the CLI's model retries end in seconds rather than minutes.
      ...(process.env.CLAUDE_CODE_MAX_RETRIES
        ? { CLAUDE_CODE_MAX_RETRIES: process.env.CLAUDE_CODE_MAX_RETRIES }
        : {}),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    logger: options.logger,
  });
  const stores = createStores(options.db);
  const base = {
    stores,
    fleet,
    agentClient: new AgentClient(),
    signal: inProcessEventSignal(),
    clock: options.clock ?? systemClock,
    logger: options.logger,
  };
  const dispatcher = inProcessDispatcher((job) => runExecution(base, job), options.logger);
  return {
    core: { ...base, dispatcher },
    fleet,
    drain: () => dispatcher.drain(),
    async close() {
      await fleet.close();
      await dispatcher.drain();
    },
  };
}
