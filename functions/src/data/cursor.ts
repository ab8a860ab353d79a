import { ValidationError } from '../lib/errors';

type Key = Record<string, unknown>;

export const encodeCursor = (key: Key | undefined): string | null =>
  key ? Buffer.from(JSON.stringify(key)).toString('base64url') : null;

/**
 * A cursor is an opaque LastEvaluatedKey. It must name the same partition the query reads, or a
 * caller could page into another tenant's items by editing it.
 */
export function decodeCursor(
  cursor: string | undefined,
  partitionAttr: string,
  partition: string,
): Key | undefined {
  if (!cursor) return undefined;
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Key;
    if (key && typeof key === 'object' && key[partitionAttr] === partition) return key;
  } catch {
    // fall through to the same error as a foreign cursor
  }
  throw new ValidationError('Invalid cursor');
}
