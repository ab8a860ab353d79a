import { readFileSync } from 'node:fs';
import { loadConfig } from '@reprise/agent-image/config';
import { AGENT_PORT } from '@reprise/functions/agent-events';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../../agent-image/${path}`, import.meta.url), 'utf8');
const dockerfile = read('Dockerfile');
const manifest = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };

describe('agent image Dockerfile', () => {
  it('pins the same claude CLI version the server is tested with', () => {
    const pinned = /ARG CLAUDE_CODE_VERSION=(\S+)/.exec(dockerfile)?.[1];
    expect(pinned).toBe(manifest.dependencies['@anthropic-ai/claude-code']);
    expect(dockerfile).toContain(['@anthropic-ai/claude-code@', '{CLAUDE_CODE_VERSION}'].join('$'));
  });

  it.each([
    ['CODEX_VERSION', '@openai/codex'],
    ['GEMINI_CLI_VERSION', '@google/gemini-cli'],
  ])('pins %s to the %s version the server is tested with', (arg, pkg) => {
    expect(new RegExp(`ARG ${arg}=(\\S+)`).exec(dockerfile)?.[1]).toBe(manifest.dependencies[pkg]);
    expect(dockerfile).toContain(`${pkg}@\${${arg}}`);
  });

  it('runs as the non-root uid/gid 1000 with HOME at the EFS mount point', () => {
    expect(dockerfile).toMatch(/^FROM node:22-slim$/m);
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    expect(dockerfile).toContain('HOME=/home/agent');
    expect(dockerfile).toContain('AGENT_WORKDIR=/w');
  });

  it('declares a health check and SIGTERM as the stop signal', () => {
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n.*\/health/m);
    expect(dockerfile).toMatch(/^STOPSIGNAL SIGTERM$/m);
  });

  it('listens on AGENT_PORT, the port ECS maps and the security groups open', () => {
    expect(dockerfile).toContain(`PORT=${AGENT_PORT} `);
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${AGENT_PORT}$`, 'm'));
    expect(dockerfile).toContain(`process.env.PORT||${AGENT_PORT})`);
    const env = { AGENT_TOKEN: 't', AGENT_HOME: '/h', AGENT_WORKDIR: '/w', ARCHIVE_DIR: '/a' };
    expect(loadConfig(env).port).toBe(AGENT_PORT);
  });

  it('bakes in no secret', () => {
    expect(dockerfile).not.toMatch(/AGENT_TOKEN=|ANTHROPIC_API_KEY=|AWS_SECRET|sk-ant-/);
  });

  it('sends only the bundle to the build context', () => {
    expect(read('.dockerignore').split('\n')).toEqual(expect.arrayContaining(['*', '!dist/server.mjs']));
  });
});
