import type { Db } from '../data/client';
import { ScheduleStore } from '../data/stores/schedules';
import type { CoreDeps } from './deps';

/** CoreDeps whose stores include the schedule store. */
export type SchedulingDeps = CoreDeps & {
  readonly stores: CoreDeps['stores'] & { readonly schedules: ScheduleStore };
};

/**
 * Adds the schedule store to deps built without it. Once `createStores` builds `schedules` itself
 * this returns the deps unchanged and `makeDb` is never called.
 */
export function withScheduleStore(core: CoreDeps, makeDb: () => Db): SchedulingDeps {
  const stores = core.stores as CoreDeps['stores'] & { readonly schedules?: ScheduleStore };
  if (stores.schedules) return core as SchedulingDeps;
  return { ...core, stores: { ...core.stores, schedules: new ScheduleStore(makeDb()) } };
}
