import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;
const tracked = execFileSync('git', ['ls-files', '*.md'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter(Boolean);

/** Inline links and images `[text](target)` and reference definitions `[id]: target`, outside code. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const inline = [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const defs = [...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]);
  return [...inline, ...defs].filter((l): l is string => !!l);
}

const isRelative = (link: string) => !/^[a-z][a-z0-9+.-]*:/i.test(link) && !link.startsWith('#');

describe('Markdown links', () => {
  it('finds the tracked Markdown files', () => {
    expect(tracked).toEqual(expect.arrayContaining(['README.md', 'docs/design.md', 'docs/api.md']));
  });

  it.each(tracked)('every relative link in %s resolves to a file in the repository', (file) => {
    const broken = linksOf(readFileSync(join(root, file), 'utf8'))
      .filter(isRelative)
      .filter((link) => {
        const target = decodeURIComponent(link.split('#')[0] ?? '');
        const resolved = target.startsWith('/') ? join(root, target) : join(root, dirname(file), target);
        return relative(root, resolved).startsWith('..') || !existsSync(resolved);
      });
    expect(broken).toEqual([]);
  });

  it('detects a broken link (the check itself works)', () => {
    expect(linksOf('see [x](nope/missing.md) and `[y](ignored.md)`\n[z]: ./ref.md')).toEqual([
      'nope/missing.md',
      './ref.md',
    ]);
  });
});
