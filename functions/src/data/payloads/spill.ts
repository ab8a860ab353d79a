import type { PayloadStore } from './payload-store';

/**
 * A field whose JSON is larger than this goes to the payload store. Four such fields inline stay
 * far below DynamoDB's 400 KB item limit, and Query pages (1 MB) still hold many items.
 */
export const INLINE_LIMIT_BYTES = 32 * 1024;

/** Characters of a spilled string kept inline, so lists (200-char previews) need no extra read. */
const PREVIEW_CHARS = 200;

const REF = 'payload_ref_';

/** What stays in the item in place of a spilled value. */
const placeholder = (value: unknown): unknown =>
  typeof value === 'string' ? value.slice(0, PREVIEW_CHARS) : Array.isArray(value) ? [] : {};

/**
 * Moves each large field to the payload store under `<prefix>/<field>.json` and returns the item
 * attributes to write: the placeholder plus `payload_ref_<field>`. With `clearRefs`, a field that
 * now fits inline also gets a null ref, so an older pointer cannot shadow it.
 */
export async function spill(
  payloads: PayloadStore,
  prefix: string,
  fields: Record<string, unknown>,
  clearRefs = false,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  await Promise.all(
    Object.entries(fields).map(async ([field, value]) => {
      const json = value === undefined ? undefined : JSON.stringify(value);
      if (json !== undefined && Buffer.byteLength(json) > INLINE_LIMIT_BYTES) {
        const key = `${prefix}/${field}.json`;
        await payloads.put(key, json);
        out[field] = placeholder(value);
        out[`${REF}${field}`] = key;
      } else {
        out[field] = value;
        if (clearRefs) out[`${REF}${field}`] = null;
      }
    }),
  );
  return out;
}

/** The item with every spilled field read back and the pointers removed. */
export async function hydrate(
  payloads: PayloadStore,
  item: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const refs = Object.keys(item).filter((k) => k.startsWith(REF));
  if (refs.length === 0) return item;
  const out = { ...item };
  await Promise.all(
    refs.map(async (ref) => {
      const key = out[ref];
      delete out[ref];
      if (typeof key === 'string') out[ref.slice(REF.length)] = JSON.parse(await payloads.get(key));
    }),
  );
  return out;
}

/** The item without pointers, for reads that only need the inline previews (lists). */
export const withoutRefs = (item: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(item).filter(([k]) => !k.startsWith(REF)));
