import type { Stores } from '../data/create-stores';
import type { AgentClient } from '../fleet/agent-client';
import type { AgentFleet } from '../fleet/agent-fleet';
import type { Logger } from '../lib/log';
import type { LifecycleConfig } from './agent-lifecycle';
import type { Clock, Dispatcher, EventSignal } from './ports';

/** Everything the domain core needs, built once per process by an entry point. */
export interface CoreDeps {
  readonly stores: Stores;
  readonly fleet: AgentFleet;
  readonly agentClient: AgentClient;
  readonly dispatcher: Dispatcher;
  readonly signal: EventSignal;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Per-tenant run cap and start takeover; defaults in agent-lifecycle.ts. */
  readonly lifecycle?: LifecycleConfig;
}
