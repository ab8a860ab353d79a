import { pathToFileURL } from 'node:url';
import { devToken, startLocalStack } from '../helpers/local-stack';
import { median, round } from './stats';

export type ColdTurns = Record<'codex' | 'gemini', number>;

/** One new-session turn through the platform: API → runner → agent server → a fresh CLI process → result. */
async function coldTurn(url: string, token: string, agent: string): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${url}/api/agents/${agent}/task?wait=25`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'hello' }),
  });
  const body = (await res.json()) as { status?: string };
  if (res.status !== 200 || body.status !== 'success')
    throw new Error(`${agent} turn failed: ${res.status} ${JSON.stringify(body)}`);
  return performance.now() - start;
}

/** Median cold turn of the seeded `codex` and `gemini` agents (each turn starts a new session). */
export async function benchColdTurns(url: string, token: string, runs = 3): Promise<ColdTurns> {
  const out: Partial<ColdTurns> = {};
  for (const agent of ['codex', 'gemini'] as const) {
    await coldTurn(url, token, agent); // The first start pays for the CLI's own first-run setup.
    const times: number[] = [];
    for (let i = 0; i < runs; i += 1) times.push(await coldTurn(url, token, agent));
    out[agent] = median(times);
  }
  return out as ColdTurns;
}

export const printColdTurns = (cold: ColdTurns): void => {
  console.log(`cold_turn_ms_codex=${round(cold.codex, 1)}`);
  console.log(`cold_turn_ms_gemini=${round(cold.gemini, 1)}`);
};

// Runnable alone: `node --import tsx test/bench/cold-turn-runtimes.ts`.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const stack = await startLocalStack();
  try {
    printColdTurns(await benchColdTurns(stack.url, await devToken(stack.url, 'bob@acme.test')));
  } finally {
    await stack.stop();
  }
}
