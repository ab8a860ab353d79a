import { claudeEnv, projectDirName } from '@reprise/agent-image/claude';
import { buildClaudeArgs } from '@reprise/agent-image/claude-args';
import { describe, expect, it } from 'vitest';

const base = { prompt: '--help', sessionId: 'abc-123', resume: false, forkSession: false };

describe('claude command line', () => {
  it('names a new session with --session-id and never puts the prompt in argv', () => {
    const args = buildClaudeArgs(base);
    expect(args).toEqual(expect.arrayContaining(['--print', '--output-format', 'stream-json', '--verbose']));
    expect(args).toEqual(
      expect.arrayContaining(['--include-partial-messages', '--dangerously-skip-permissions']),
    );
    expect(args.slice(-2)).toEqual(['--session-id', 'abc-123']);
    expect(args).not.toContain('--help');
    expect(args).not.toContain('--resume');
  });

  it('resumes with --resume and forks only when asked', () => {
    expect(buildClaudeArgs({ ...base, resume: true })).not.toContain('--fork-session');
    const fork = buildClaudeArgs({ ...base, resume: true, forkSession: true });
    expect(fork.slice(-3)).toEqual(['--resume', 'abc-123', '--fork-session']);
    expect(fork).not.toContain('--session-id');
  });

  it('passes model, tools, system prompt and max turns bound to their flags', () => {
    const args = buildClaudeArgs({
      ...base,
      model: 'm1',
      allowedTools: ['Bash(git *)', 'Read'],
      systemPrompt: '--version first',
      maxTurns: 3,
    });
    expect(args).toEqual(
      expect.arrayContaining([
        '--model=m1',
        '--tools=Bash,Read',
        '--allowedTools=Bash(git *),Read',
        '--append-system-prompt=--version first',
        '--max-turns=3',
      ]),
    );
    expect(args).not.toContain('--version');
  });

  it('derives the project folder by replacing every non-alphanumeric character', () => {
    expect(projectDirName('/tmp/aw-Xy_z.1')).toBe('-tmp-aw-Xy-z-1');
  });

  it('builds an explicit environment with a dummy key and IS_SANDBOX only as root', () => {
    const options = { bin: 'claude', home: '/h', workdir: '/w', killGraceMs: 1, path: '/bin' };
    expect(claudeEnv(options)).toEqual({
      HOME: '/h',
      PATH: '/bin',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      ANTHROPIC_API_KEY: 'scripted-model-dummy-key',
    });
    const root = claudeEnv({ ...options, isRoot: true, apiKey: 'k', baseUrl: 'http://m' });
    expect(root).toMatchObject({ IS_SANDBOX: '1', ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://m' });
  });
});
