import { randomBytes, randomUUID } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let lastTime = 0;
let lastRandom = new Uint8Array(10);

/**
 * A ULID: 48-bit millisecond time + 80 random bits, Crockford base32. Monotonic within one
 * millisecond (the random part is incremented), so ids sort in creation order — the executions
 * list relies on this for "newest first".
 */
export function ulid(now: number = Date.now()): string {
  if (now <= lastTime) {
    increment(lastRandom);
  } else {
    lastTime = now;
    lastRandom = new Uint8Array(randomBytes(10));
  }
  return encodeTime(lastTime) + encodeRandom(lastRandom);
}

function increment(bytes: Uint8Array): void {
  for (let i = bytes.length - 1; i >= 0; i--) {
    const next = (bytes[i] ?? 0) + 1;
    bytes[i] = next & 0xff;
    if (next <= 0xff) return;
  }
}

function encodeTime(ms: number): string {
  let out = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[t % 32] + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = CROCKFORD[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return out;
}

export const uuid = (): string => randomUUID();
