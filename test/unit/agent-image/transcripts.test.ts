import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLEANUP_PERIOD_DAYS, ensureClaudeSettings, repairTornTail } from '@reprise/agent-image/transcripts';
import { describe, expect, it } from 'vitest';

const temp = () => mkdtempSync(join(tmpdir(), 'tr-'));
const file = (content: string) => {
  const path = join(temp(), 's.jsonl');
  writeFileSync(path, content);
  return path;
};

describe('transcript repair', () => {
  it('drops a torn last line', async () => {
    const path = file('{"a":1}\n{"b":2}\n{"c":');
    expect(await repairTornTail(path)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n{"b":2}\n');
  });

  it('drops an invalid last line that still ends with a newline', async () => {
    const path = file('{"a":1}\n{"b"\n');
    expect(await repairTornTail(path)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n');
  });

  it('terminates a complete last line that lost its newline', async () => {
    const path = file('{"a":1}\n{"b":2}');
    expect(await repairTornTail(path)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n{"b":2}\n');
  });

  it('leaves a healthy transcript untouched', async () => {
    const path = file('{"a":1}\n{"b":2}\n');
    expect(await repairTornTail(path)).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n{"b":2}\n');
  });
});

describe('claude settings', () => {
  it('sets a very large cleanupPeriodDays and keeps other settings', async () => {
    const home = temp();
    await ensureClaudeSettings(home);
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(
      join(home, '.claude', 'settings.json'),
      JSON.stringify({ theme: 'dark', cleanupPeriodDays: 0 }),
    );
    await ensureClaudeSettings(home);
    const settings = JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8'));
    expect(settings).toEqual({ theme: 'dark', cleanupPeriodDays: CLEANUP_PERIOD_DAYS });
    expect(CLEANUP_PERIOD_DAYS).toBeGreaterThan(10_000);
  });
});
