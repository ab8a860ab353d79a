import { sanitize } from '@reprise/functions/sanitizer';

/** Past this much held-back text, flush anyway: memory stays bounded whatever the model streams. */
const MAX_HELD = 64 * 1024;
/** Only the tail is searched for a cut, so each delta costs O(window), not O(held text). */
const WINDOW = 512;

const isSpace = (code: number): boolean => code === 32 || (code >= 9 && code <= 13);
/** Characters that tie the next word to the previous one in `NAME = "value"` pairs. */
const isJoiner = (code: number): boolean => code === 61 || code === 58 || code === 34 || code === 39;

/**
 * Redacts streamed text deltas. A secret can straddle two deltas, so text is only released at a
 * whitespace boundary that no credential pattern spans (not around `=`/`:`, not after `Bearer`,
 * never inside a private key block); the rest waits for the next delta or `flush()`.
 */
export class TextRedactor {
  private held = '';

  push(delta: string): string {
    this.held += delta;
    if (this.held.length > MAX_HELD) return this.flush();
    const cut = this.safeCut();
    if (cut <= 0) return '';
    const out = this.held.slice(0, cut);
    this.held = this.held.slice(cut);
    return sanitize(out);
  }

  flush(): string {
    const out = this.held;
    this.held = '';
    return sanitize(out);
  }

  /** Cuts are allowed before the first key block or after the last complete one, never between. */
  private pemBounds(): { before: number; after: number } {
    const text = this.held;
    const first = text.indexOf('-----BEGIN');
    if (first < 0) return { before: Number.POSITIVE_INFINITY, after: 0 };
    const last = text.lastIndexOf('-----BEGIN');
    const end = text.indexOf('-----END', last);
    const close = end < 0 ? -1 : text.indexOf('KEY-----', end);
    return { before: first, after: close < 0 ? Number.POSITIVE_INFINITY : close + 'KEY-----'.length };
  }

  /** Index of the first whitespace after a word, or 0 when no safe place exists yet. */
  private safeCut(): number {
    const text = this.held;
    const pem = this.pemBounds();
    let next = -1;
    for (let i = text.length - 1; i > 0 && i >= text.length - WINDOW; i -= 1) {
      const code = text.charCodeAt(i);
      if (!isSpace(code)) {
        next = code;
        continue;
      }
      if (isSpace(text.charCodeAt(i - 1))) continue;
      // `next` is the first non-space character after this whitespace run (-1: none yet).
      if (next < 0 || isJoiner(next) || isJoiner(text.charCodeAt(i - 1))) continue;
      if (text.endsWith('Bearer', i) || text.endsWith('Basic', i)) continue;
      if (i > pem.before && i < pem.after) continue;
      return i;
    }
    return 0;
  }
}
