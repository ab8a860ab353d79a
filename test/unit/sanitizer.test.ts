import { REDACTED, sanitize, sanitizeDeep } from '@reprise/functions/sanitizer';
import { describe, expect, it } from 'vitest';

const ANTHROPIC = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const OPENAI = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz012345';

describe('sanitize', () => {
  it.each([
    ['an Anthropic key', `key is ${ANTHROPIC} ok`, ANTHROPIC],
    ['an OpenAI-style key', `OPENAI ${OPENAI}`, OPENAI],
    ['an AWS access key id', 'id AKIAIOSFODNN7EXAMPLE here', 'AKIAIOSFODNN7EXAMPLE'],
    ['a temporary AWS key id', 'ASIAIOSFODNN7EXAMPLE', 'ASIAIOSFODNN7EXAMPLE'],
    ['an aws secret', 'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI'],
    ['a GitHub token', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'ghp_abcdef'],
    ['a fine-grained GitHub token', 'github_pat_11ABCDEFG0123456789_abcdefghijk', 'github_pat_11'],
    ['a Slack token', 'xoxb-123456789012-abcdefghijkl', 'xoxb-1234'],
    ['a bearer token', 'Authorization: Bearer eyJhbGciOi.payload.sig', 'eyJhbGciOi'],
    ['basic auth', 'Authorization: Basic dXNlcjpwYXNzd29yZA==', 'dXNlcjpwYXNzd29yZA'],
    ['a *_KEY pair', 'export STRIPE_API_KEY=live_abc123', 'live_abc123'],
    ['a *_TOKEN pair', 'NPM_TOKEN = npm_abcdef', 'npm_abcdef'],
    ['a *_SECRET pair', '"CLIENT_SECRET": "s3cr3t-value"', 's3cr3t-value'],
    ['a PASSWORD= pair', 'PASSWORD=hunter2', 'hunter2'],
    ['a password: pair', 'db password: hunter2', 'hunter2'],
    ['URL user-info', 'clone https://bob:pa55word@git.example.com/repo.git', 'pa55word'],
  ])('redacts %s', (_name, input, secret) => {
    const out = sanitize(input);
    expect(out).toContain(REDACTED);
    expect(out).not.toContain(secret);
  });

  it('redacts a PEM private key block and keeps the text around it', () => {
    const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1x\nabc\n-----END RSA PRIVATE KEY-----';
    const out = sanitize(`before\n${pem}\nafter`);
    expect(out).toBe(`before\n${REDACTED}\nafter`);
  });

  it('redacts everything after an unterminated PEM block', () => {
    expect(sanitize('x -----BEGIN PRIVATE KEY-----\nMIIEow')).toBe(`x ${REDACTED}`);
  });

  it('keeps ordinary prose, code and token counts intact', () => {
    const text = 'Basic usage: run `ls -la` then max_tokens: 512 and input_tokens=12. Bearer tokens expire.';
    expect(sanitize(text)).toBe(text);
  });

  it('keeps URLs without credentials intact', () => {
    const text = 'see https://example.com/a:b@c and http://host:8080/path';
    expect(sanitize(text)).toBe(text);
  });

  it('terminates on a 200 KB adversarial input with the right answer', () => {
    const chunks = [
      'sk-'.repeat(20_000),
      'a'.repeat(50_000),
      'a.a.'.repeat(10_000),
      '-----BEGIN RSA PRIVATE KEY-----'.repeat(1_000),
      'http://a:'.repeat(5_000),
      'A_KEY '.repeat(5_000),
      'A_KEY='.repeat(5_000),
      'a: '.repeat(5_000),
      `${'x'.repeat(100)}=`.repeat(200),
    ];
    const input = chunks.join(' ');
    expect(input.length).toBeGreaterThan(200_000);
    const out = sanitize(`${input} ${ANTHROPIC}`);
    expect(out).not.toContain(ANTHROPIC);
    expect(out.startsWith(REDACTED)).toBe(true);
  });
});

describe('sanitizeDeep', () => {
  it('sanitizes nested strings and leaves keys and other values alone', () => {
    const value = { api_key: 1, nested: [{ out: `x ${ANTHROPIC}` }], ok: true, n: null };
    expect(sanitizeDeep(value)).toEqual({
      api_key: 1,
      nested: [{ out: `x ${REDACTED}` }],
      ok: true,
      n: null,
    });
  });
});

describe('sanitize key/value pairs', () => {
  it('finds a secret pair that follows a harmless pair', () => {
    expect(sanitize('Here it is: PASSWORD = hunter2')).toBe(`Here it is: PASSWORD = ${REDACTED}`);
  });

  it('redacts every secret pair on a line', () => {
    expect(sanitize('A_TOKEN=x1 B_SECRET=y2 c=3')).toBe(`A_TOKEN=${REDACTED} B_SECRET=${REDACTED} c=3`);
  });
});
