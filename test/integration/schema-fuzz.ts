/**
 * A small Schemathesis-style generator: valid and invalid values for the JSON Schemas in our
 * OpenAPI document (the subset zod emits), from a seeded random source so a failure replays.
 */
export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  additionalProperties?: Schema | boolean;
};

export type Random = () => number;

/** mulberry32: tiny, fast, good enough to spread cases. */
export function seeded(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
const int = (r: Random, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

/** Strings that have broken parsers elsewhere: control characters, surrogates, huge and odd text. */
const NASTY = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '😀'.repeat(50),
  '\ud800',
  '../../etc/passwd',
  '%00',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '{"$ne":null}',
  'T#globex#A#demo#E',
  '\r\nx-injected: 1',
  'x'.repeat(5000),
  '0',
  '-1',
  '1e309',
  'null',
];

const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const word = (r: Random, min = 1, max = 12) =>
  Array.from({ length: int(r, min, max) }, () => pick(r, [...ALNUM])).join('');

function validString(r: Random, s: Schema): string {
  if (s.format === 'email') return `${word(r)}@acme.test`;
  if (s.format === 'date-time') return new Date(int(r, 0, 2e12)).toISOString();
  // Patterns we cannot invert get a plain lower-case word, which most of ours accept.
  const min = s.minLength ?? 1;
  const max = Math.min(s.maxLength ?? 40, Math.max(min, 40));
  const out = `${pick(r, ['a', 'b', 'z'])}${word(r, Math.max(0, min - 1), Math.max(0, max - 1))}`;
  return out.slice(0, s.maxLength ?? out.length);
}

/** A value the schema should accept (best effort: patterns are approximated). */
export function valid(r: Random, s: Schema, depth = 0): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum) return pick(r, s.enum);
  const union = s.anyOf ?? s.oneOf;
  if (union) return valid(r, pick(r, union), depth);
  const type = Array.isArray(s.type) ? pick(r, s.type) : s.type;
  switch (type) {
    case 'string':
      return validString(r, s);
    case 'integer':
      return int(r, s.minimum ?? 0, Math.min(s.maximum ?? 1000, (s.minimum ?? 0) + 1000));
    case 'number':
      return (s.minimum ?? 0) + r() * ((s.maximum ?? 1000) - (s.minimum ?? 0));
    case 'boolean':
      return r() < 0.5;
    case 'null':
      return null;
    case 'array': {
      if (depth > 3) return [];
      const n = int(r, s.minItems ?? 0, Math.min(s.maxItems ?? 3, (s.minItems ?? 0) + 3));
      return Array.from({ length: n }, () => valid(r, s.items ?? {}, depth + 1));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        if (s.required?.includes(name) || r() < 0.5) out[name] = valid(r, prop, depth + 1);
      }
      return out;
    }
    default:
      return word(r);
  }
}

/** Anything at all: wrong types, nasty strings, out-of-range numbers, deep nesting. */
export function junk(r: Random, depth = 0): unknown {
  switch (int(r, 0, depth > 2 ? 4 : 6)) {
    case 0:
      return pick(r, NASTY);
    case 1:
      return pick(r, [0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 841, 9]);
    case 2:
      return pick(r, [true, false, null]);
    case 3:
      return word(r);
    case 4:
      return '😀'.repeat(int(r, 1, 300));
    case 5:
      return Array.from({ length: int(r, 0, 4) }, () => junk(r, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: int(r, 0, 4) }, () => [word(r), junk(r, depth + 1)]));
  }
}

/** A value the schema should refuse, or at least test its edges: one field broken at a time. */
export function invalid(r: Random, s: Schema): unknown {
  const base = valid(r, s);
  if (base && typeof base === 'object' && !Array.isArray(base) && s.properties) {
    const names = Object.keys(s.properties);
    const out = { ...(base as Record<string, unknown>) };
    const name = pick(r, names);
    const roll = r();
    if (roll < 0.25 && s.required?.includes(name)) delete out[name];
    else if (roll < 0.4) out[`${word(r)}_extra`] = junk(r);
    else out[name] = junk(r);
    return out;
  }
  return junk(r);
}
