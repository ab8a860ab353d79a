import { randomUUID } from 'node:crypto';
import { monotonicFactory } from 'ulid';

const monotonic = monotonicFactory();

/**
 * A ULID (the `ulid` package): 48-bit millisecond time + 80 random bits, Crockford base32.
 * Monotonic in this process — within one millisecond, or when `now` goes backwards, the random
 * part is incremented on the last time — so ids sort in creation order; the executions list
 * relies on this for "newest first".
 */
export const ulid = (now: number = Date.now()): string => monotonic(now);

export const uuid = (): string => randomUUID();
