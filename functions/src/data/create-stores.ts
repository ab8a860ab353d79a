import { type Db, type TxWrite, writeAll } from './client';
import type { PayloadStore } from './payloads/payload-store';
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
  /** Writes items of several stores at once, all or none (see `writeAll`). */
  writeAll(items: TxWrite[]): Promise<boolean[] | null>;
}

/** `payloads` holds what does not fit an item (S3 in AWS, a folder locally). */
export function createStores(db: Db, payloads: PayloadStore): Stores {
  return {
    agents: new AgentStore(db),
    apiKeys: new ApiKeyStore(db),
    chats: new ChatStore(db),
    events: new EventStore(db, payloads),
    executions: new ExecutionStore(db, payloads),
    idempotency: new IdempotencyStore(db),
    leases: new LeaseStore(db),
    schedules: new ScheduleStore(db),
    users: new UserStore(db),
    writeAll: (items) => writeAll(db, items),
  };
}
