import type { CoreDeps } from './deps';

/** The deps the schedule modules take: the core's, whose stores include the schedule store. */
export type SchedulingDeps = CoreDeps;
