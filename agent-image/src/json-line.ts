/**
 * Reading the JSON lines the CLIs print (claude stream-json, codex --json, gemini stream-json):
 * untyped objects, narrowed field by field by each runtime's parser.
 */

// biome-ignore lint/suspicious/noExplicitAny: CLI output lines are untyped JSON, narrowed field by field.
export type Line = Record<string, any>;

/** One line as an object, or null when it is not a JSON object (banners, partial writes). */
export const parseLine = (line: string): Line | null => {
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Line) : null;
  } catch {
    return null;
  }
};

/** A finite number, or null. */
export const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
