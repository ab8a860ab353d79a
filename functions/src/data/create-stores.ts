import type { Db } from './client';
import {
  AgentStore,
  ApiKeyStore,
  ChatStore,
  EventStore,
  ExecutionStore,
  IdempotencyStore,
  LeaseStore,
  ScheduleStore,
  UserStore,
} from './stores/index';

export interface Stores {
  readonly agents: AgentStore;
  readonly apiKeys: ApiKeyStore;
  readonly chats: ChatStore;
  readonly events: EventStore;
  readonly executions: ExecutionStore;
  readonly idempotency: IdempotencyStore;
  readonly leases: LeaseStore;
  readonly schedules: ScheduleStore;
  readonly users: UserStore;
}

export function createStores(db: Db): Stores {
  return {
    agents: new AgentStore(db),
    apiKeys: new ApiKeyStore(db),
    chats: new ChatStore(db),
    events: new EventStore(db),
    executions: new ExecutionStore(db),
    idempotency: new IdempotencyStore(db),
    leases: new LeaseStore(db),
    schedules: new ScheduleStore(db),
    users: new UserStore(db),
  };
}
