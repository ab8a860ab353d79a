import { sanitize } from '@reprise/functions/sanitizer';

/** Past this much held-back text, flush anyway: memory stays bounded whatever the model streams. */
const MAX_HELD = 64 * 1024;
const MAX_CANDIDATES = 64;
const JOINS_NEXT_WORD = /(?:[=:"']|\bBearer|\bBasic)\s*$/;
const STARTS_VALUE = /^\s+[=:"']/;

/** Inside a private key block, or inside its END marker line (which also contains spaces). */
const insidePem = (text: string): boolean => {
  const begin = text.lastIndexOf('-----BEGIN');
  if (begin < 0) return false;
  const end = text.lastIndexOf('-----END');
  return end < begin || !text.includes('KEY-----', end);
};

/**
 * Redacts streamed text deltas. A secret can straddle two deltas, so text is only released at a
 * whitespace boundary that no credential pattern spans (not after `KEY=`, `Bearer`, nor inside a
 * PEM block); the rest waits for the next delta or `flush()`.
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

  /** Index just after a whitespace run, or 0 when no safe place exists yet. */
  private safeCut(): number {
    const text = this.held;
    let seen = 0;
    for (let i = text.length - 1; i > 0 && seen < MAX_CANDIDATES; i -= 1) {
      if (!/\s/.test(text[i]!) || /\s/.test(text[i - 1]!)) continue;
      seen += 1;
      const before = text.slice(0, i);
      const after = text.slice(i);
      if (!/\S/.test(after) || STARTS_VALUE.test(after)) continue;
      if (JOINS_NEXT_WORD.test(before) || insidePem(before)) continue;
      return i;
    }
    return 0;
  }
}
