/**
 * Credential sanitizer applied to every response, event and tool output before it is stored or
 * streamed. Every pattern is linear: no nested quantifiers, and each unbounded run is anchored on a
 * fixed prefix or a word boundary, so a hostile 200 KB tool output cannot stall the event loop.
 */
export const REDACTED = '***REDACTED***';

const TOKEN_PATTERNS: readonly RegExp[] = [
  /\bsk-ant-[A-Za-z0-9_-]{8,}/g,
  /\bsk-[A-Za-z0-9_-]{20,}/g,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\b(?:ghp|gho|ghs|ghu|ghr)_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
];

const AUTH_HEADER = /\b(Bearer|Basic)(\s+)([A-Za-z0-9._~+/=-]{8,})/g;
// A fixed list of schemes: a free-form scheme run would be quadratic on text like `a.a.a.a…`.
const URL_USERINFO =
  /\b((?:https?|ftp|sftp|ssh|git|redis|rediss|postgres|postgresql|mysql|mongodb|mongodb\+srv|amqps?):\/\/)[^\s/@:]+:[^\s/@]+@/gi;
// `\b` before a word-character run keeps this linear: each word is scanned once.
const SECRET_PAIR = /\b([A-Za-z_][A-Za-z0-9_]*)(["']?\s*[=:]\s*["']?)/g;
const PAIR_VALUE = /[^\s"'`,;&}]+/y;
const SECRET_NAME = /(?:_KEY|_TOKEN|_SECRET|PASSWORD|PASSWD|^SECRET|^TOKEN|^APIKEY)$/i;

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----/g;
const PEM_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----/g;

/** Indexes instead of a lazy `[\s\S]*?` match, which would rescan the rest for every BEGIN. */
const redactPem = (text: string): string => {
  let out = '';
  let from = 0;
  for (;;) {
    PEM_BEGIN.lastIndex = from;
    const begin = PEM_BEGIN.exec(text);
    if (!begin) return out + text.slice(from);
    PEM_END.lastIndex = begin.index + begin[0].length;
    const end = PEM_END.exec(text);
    out += text.slice(from, begin.index) + REDACTED;
    // An unterminated block is still a key: drop everything after it rather than leak the body.
    if (!end) return out;
    from = end.index + end[0].length;
  }
};

/**
 * Finds `NAME = value` pairs by hand: a single replace would consume the value of a harmless pair
 * (`is: PASSWORD`) and skip the secret pair that starts inside it.
 */
const redactPairs = (text: string): string => {
  let out = '';
  let from = 0;
  SECRET_PAIR.lastIndex = 0;
  for (let pair = SECRET_PAIR.exec(text); pair; pair = SECRET_PAIR.exec(text)) {
    if (!SECRET_NAME.test(pair[1]!)) continue;
    PAIR_VALUE.lastIndex = SECRET_PAIR.lastIndex;
    const value = PAIR_VALUE.exec(text);
    if (!value || value[0] === REDACTED) continue;
    out += text.slice(from, SECRET_PAIR.lastIndex) + REDACTED;
    from = PAIR_VALUE.lastIndex;
    SECRET_PAIR.lastIndex = from;
  }
  return out + text.slice(from);
};

const looksEncoded = (value: string): boolean => /[0-9+/=]/.test(value);

export const sanitize = (text: string): string => {
  if (text.length === 0) return text;
  let out = text.includes('-----BEGIN ') ? redactPem(text) : text;
  for (const pattern of TOKEN_PATTERNS) out = out.replace(pattern, REDACTED);
  out = out.replace(AUTH_HEADER, (all, scheme: string, space: string, value: string) =>
    scheme === 'Bearer' || looksEncoded(value) ? `${scheme}${space}${REDACTED}` : all,
  );
  out = out.replace(URL_USERINFO, (_all, scheme: string) => `${scheme}${REDACTED}@`);
  out = redactPairs(out);
  return out;
};

/** Sanitizes every string inside a JSON value; object keys are left alone (they are schema, not data). */
export const sanitizeDeep = <T>(value: T): T => {
  if (typeof value === 'string') return sanitize(value) as T;
  if (Array.isArray(value)) return value.map((item) => sanitizeDeep(item)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = sanitizeDeep(item);
    return out as T;
  }
  return value;
};
