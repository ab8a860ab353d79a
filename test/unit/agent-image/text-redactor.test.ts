import { TextRedactor } from '@reprise/agent-image/text-redactor';
import { REDACTED, sanitize } from '@reprise/functions/sanitizer';
import { describe, expect, it } from 'vitest';

const SECRETS = [
  'sk-ant-api03-AbCdEfGhIjKlMnOpQrSt',
  'PASSWORD = hunter2hunter2',
  'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9',
  'https://bob:pa55word@host.example',
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nZZZZsecretline\n-----END RSA PRIVATE KEY-----',
];
const LEAKS = [
  'AbCdEfGhIjKl',
  'hunter2',
  'eyJhbGciOiJIUzI1NiJ9',
  'pa55word',
  'MIIEowIBAAKCAQEA',
  'ZZZZsecretline',
];

const stream = (parts: string[]): string => {
  const redactor = new TextRedactor();
  return parts.map((part) => redactor.push(part)).join('') + redactor.flush();
};

describe('streamed text redaction', () => {
  it.each(SECRETS)('never leaks %s whatever two deltas it is split across', (secret) => {
    const text = `Here it is: ${secret} and more words follow.`;
    for (let cut = 0; cut <= text.length; cut += 1) {
      const out = stream([text.slice(0, cut), text.slice(cut)]);
      for (const leak of LEAKS) expect(out, `cut at ${cut}`).not.toContain(leak);
      expect(out).toContain(REDACTED);
    }
  });

  it('matches sanitizing the whole text when streamed one character at a time', () => {
    const text = `start ${SECRETS.join(' middle ')} end`;
    expect(stream([...text])).toBe(sanitize(text));
  });

  it('holds text after a colon until the next word shows it is not a secret value', () => {
    const redactor = new TextRedactor();
    expect(redactor.push('token: ')).toBe('');
    expect(redactor.push('abc123 and')).toBe(`token: ${REDACTED}`);
  });

  it.each(['x', 'a: ', 'KEY= ', '-----BEGIN '])(
    'passes a 200 KB stream of %j deltas (near-miss patterns) through intact',
    (unit) => {
      const text = unit.repeat(Math.ceil(200_000 / unit.length));
      const parts: string[] = [];
      for (let at = 0; at < text.length; at += 20) parts.push(text.slice(at, at + 20));
      const out = stream(parts);
      expect(out).toBe(text);
    },
  );

  it('releases text at word boundaries before the stream ends', () => {
    const redactor = new TextRedactor();
    expect(redactor.push('Echo turn one hel')).toBe('Echo turn one');
    expect(redactor.push('lo wor')).toBe(' hello');
    expect(redactor.flush()).toBe(' wor');
  });
});
