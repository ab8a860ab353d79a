import { loadConfig } from '@reprise/agent-image/config';
import { describe, expect, it } from 'vitest';

const env = { AGENT_TOKEN: 't', AGENT_HOME: '/h', AGENT_WORKDIR: '/w', ARCHIVE_DIR: '/a', PORT: '0' };

describe('agent server config', () => {
  it('reads a complete environment', () => {
    expect(loadConfig({ ...env, ANTHROPIC_BASE_URL: 'http://m', CLAUDE_BIN: '/bin/claude' })).toMatchObject({
      port: 0,
      token: 't',
      home: '/h',
      workdir: '/w',
      archive: { kind: 'dir', dir: '/a' },
      claudeBin: '/bin/claude',
      anthropicBaseUrl: 'http://m',
    });
  });

  it('passes the CLI retry count through only when set', () => {
    expect(loadConfig(env).claudeMaxRetries).toBeUndefined();
    expect(loadConfig({ ...env, CLAUDE_CODE_MAX_RETRIES: '0' }).claudeMaxRetries).toBe(0);
  });

  it('keeps four warm processes for ten minutes unless told otherwise, 0 turning the pool off', () => {
    expect(loadConfig(env)).toMatchObject({ warmPoolSize: 4, warmIdleSeconds: 600 });
    expect(loadConfig({ ...env, WARM_POOL_SIZE: '0', WARM_IDLE_SECONDS: '30' })).toMatchObject({
      warmPoolSize: 0,
      warmIdleSeconds: 30,
    });
    expect(() => loadConfig({ ...env, WARM_IDLE_SECONDS: '0' })).toThrow('WARM_IDLE_SECONDS');
  });

  it('prefers the S3 archive when a bucket is set', () => {
    expect(loadConfig({ ...env, ARCHIVE_BUCKET: 'b', ARCHIVE_PREFIX: 'acme/' }).archive).toEqual({
      kind: 's3',
      bucket: 'b',
      prefix: 'acme/',
    });
  });

  it.each(['AGENT_TOKEN', 'AGENT_HOME', 'AGENT_WORKDIR'])('fails fast naming a missing %s', (name) => {
    expect(() => loadConfig({ ...env, [name]: undefined })).toThrow(name);
  });

  it('fails fast naming a bad PORT', () => {
    expect(() => loadConfig({ ...env, PORT: 'http' })).toThrow('PORT');
  });

  it('resolves the claude binary of the installed package by default', () => {
    expect(loadConfig(env).claudeBin).toMatch(/claude/);
  });
});
