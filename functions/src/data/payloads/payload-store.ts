/**
 * Where fields too large for a DynamoDB item (400 KB) live: S3 in AWS, a folder under the data
 * directory locally. Items keep a pointer (`payload_ref_<field>`) and stores read them back, so
 * callers never see the difference.
 */
export interface PayloadStore {
  put(key: string, body: string): Promise<void>;
  /** The stored text; throws when the object is missing (a pointer to nothing is a bug, not data). */
  get(key: string): Promise<string>;
}

/** Keys are built by the stores only; this shape keeps them inside the store's root. */
const SAFE_KEY = /^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._/-]{0,900}$/;

export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key)) throw new Error(`Unsafe payload key: ${key.slice(0, 80)}`);
}
