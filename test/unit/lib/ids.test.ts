import { ulid } from '@reprise/functions/lib/ids';
import { Ulid } from '@reprise/functions/schemas';
import { decodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';

describe('ulid', () => {
  it('encodes the given time and matches the pattern the routes enforce', () => {
    const at = Date.UTC(2026, 11, 3, 8, 0, 0, 123);
    const id = ulid(at);
    expect(Ulid.safeParse(id).success).toBe(true);
    expect(decodeTime(id)).toBe(at);
  });

  it('sorts in creation order within one millisecond', () => {
    const at = Date.UTC(2030, 0, 1);
    const ids = Array.from({ length: 1000 }, () => ulid(at));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('stays ordered when the clock goes backwards', () => {
    const later = ulid(Date.UTC(2031, 0, 1, 0, 0, 1));
    const earlier = ulid(Date.UTC(2031, 0, 1, 0, 0, 0));
    expect(earlier > later).toBe(true);
  });

  it('sorts ids of later milliseconds after earlier ones', () => {
    const a = ulid(Date.UTC(2032, 0, 1, 0, 0, 0, 1));
    const b = ulid(Date.UTC(2032, 0, 1, 0, 0, 0, 2));
    expect(b > a).toBe(true);
    expect(decodeTime(b)).toBe(Date.UTC(2032, 0, 1, 0, 0, 0, 2));
  });
});
