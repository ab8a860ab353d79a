import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let source: Promise<string> | undefined;

export type AxeViolation = { id: string; impact: string | null; help: string; targets: string[] };

/** axe-core's violations on the page as it is now (the script is evaluated once per document). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  source ??= readFile(axePath, 'utf8');
  // Evaluated through the DevTools protocol, so the app's CSP does not apply to the audit script.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(await source);
  return page.evaluate(async () => {
    type AxeResult = {
      violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
    };
    const page = globalThis as unknown as {
      axe: { run: (context: unknown, options: object) => Promise<AxeResult> };
      document: unknown;
    };
    const result = await page.axe.run(page.document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  });
}

/** Audits the page in light and in dark colour schemes; throws with every violation found. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const found: string[] = [];
  try {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const v of await axeViolations(page))
        found.push(`${label} [${colorScheme}] ${v.id} (${v.impact}): ${v.help} — ${v.targets.join(' | ')}`);
    }
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
  if (found.length > 0) throw new Error(`axe-core violations:\n${found.join('\n')}`);
}
