import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildWebIfStale } from '../../infra/local/src/web-build';
import { devToken, startLocalStack } from '../helpers/local-stack';
import { benchColdTurns, printColdTurns } from './cold-turn-runtimes';
import { benchFirstEvent } from './first-event';
import { benchResumeGate } from './resume-gate';
import { benchApiBundle, spaJsGzipBytes } from './sizes';
import { round } from './stats';
import { benchTurnOverhead } from './turn-overhead';
import { benchWake } from './wake';
import { benchWarmTurns } from './warm-turns';

/**
 * `npm run bench`: prints figures, asserts nothing; the last lines are name=value for scripts.
 * `BENCH=warm npm run bench` measures only the warm/cold chat turn figures, `BENCH=wake` only
 * wake_to_first_event_ms.
 */
const progress = (s: string) => process.stderr.write(`• ${s}\n`);
const dir = await mkdtemp(join(tmpdir(), 'rp-bench-'));
const only = process.env.BENCH;

const warmFigures = async (stack: Awaited<ReturnType<typeof startLocalStack>>, token: string) => {
  progress('warm vs cold chat turns');
  const warm = await benchWarmTurns({
    url: stack.url,
    token,
    agent: { tenant: 'acme', agent: 'demo' },
    endpoint: (ref) => stack.platform.fleet.endpoint(ref),
    runs: 15,
  });
  return () => {
    const parts = Object.entries(warm.warmTurnCpuByRole).map(([role, ms]) => `${role} ${round(ms, 1)}`);
    console.log(`warm turn cpu: ${parts.join(', ')} ms per turn`);
    console.log(`warm_turn_ms=${round(warm.warmTurnMs, 1)}`);
    console.log(`cold_turn_ms=${round(warm.coldTurnMs, 1)}`);
    console.log(`warm_first_event_ms=${round(warm.warmFirstEventMs, 1)}`);
    console.log(`cold_first_event_ms=${round(warm.coldFirstEventMs, 1)}`);
    console.log(`warm_process_rss_mb=${round(warm.warmProcessRssMb, 1)}`);
    console.log(`warm_turn_cpu_ms=${round(warm.warmTurnCpuMs, 1)}`);
  };
};

if (only === 'warm') {
  progress('starting the local stack');
  const stack = await startLocalStack({ dataDir: dir });
  try {
    const print = await warmFigures(stack, await devToken(stack.url, 'bob@acme.test'));
    print();
  } finally {
    await stack.stop();
  }
  process.exit(0);
}

if (only === 'wake') {
  const stack = await startLocalStack({ dataDir: dir });
  try {
    progress('wake to first event (stopped agent)');
    const wake = await benchWake(stack.url, await devToken(stack.url, 'bob@acme.test'), 5);
    console.log(`wake_to_first_event_ms=${round(wake, 1)}`);
  } finally {
    await stack.stop();
  }
  process.exit(0);
}

progress('bundling the api Lambda');
const bundle = await benchApiBundle(dir);
await buildWebIfStale(resolve('web'), progress);
const spa = spaJsGzipBytes();

progress('starting the local stack');
const stack = await startLocalStack({ dataDir: dir });
try {
  // The gate's 101,000 writes run first; they also warm DynamoDB Local's JIT, so the turn figures
  // measure the platform rather than a cold Java emulator (the real service is never cold).
  const gate = await benchResumeGate(stack.db, progress);
  const token = await devToken(stack.url, 'bob@acme.test');
  progress('chat turn overhead (platform vs bare CLI)');
  const turn = await benchTurnOverhead({
    url: stack.url,
    token,
    home: join(dir, 'agents', 'acme', 'demo'),
    modelUrl: stack.modelUrl,
    runs: 15,
  });
  progress('first streamed event');
  const first = await benchFirstEvent(stack.url, token, 5);
  const printWarm = await warmFigures(stack, token);
  progress('cold turns of the codex and gemini runtimes');
  const cold = await benchColdTurns(stack.url, token);
  progress('wake to first event (stopped agent)');
  const wake = await benchWake(stack.url, token, 5);

  console.log(
    `resume gate median: ${round(gate.atSmall)} ms at 1,000 executions, ${round(gate.atLarge)} ms at 100,000`,
  );
  console.log(
    `chat turn median: ${round(turn.apiMs)} ms through the platform, ${round(turn.bareMs)} ms bare CLI`,
  );
  console.log(`first event: ${round(first)} ms from being stored to reaching the SSE client (median)`);
  console.log(
    `api bundle: ${round(bundle.bytes / 1024, 1)} KiB minified, cold import ${round(bundle.coldImportMs)} ms`,
  );
  console.log(`spa js: ${round(spa / 1024, 1)} KiB gzip`);
  console.log(`resume_gate_ratio=${round(gate.ratio)}`);
  console.log(`turn_overhead_ms=${round(turn.overheadMs, 1)}`);
  console.log(`turn_overhead_ratio=${round(turn.ratio, 3)}`);
  console.log(`sse_first_event_ms=${round(first, 1)}`);
  console.log(`api_bundle_kb=${round(bundle.bytes / 1024, 1)}`);
  console.log(`api_cold_import_ms=${round(bundle.coldImportMs, 1)}`);
  console.log(`spa_js_gzip_kb=${round(spa / 1024, 1)}`);
  printWarm();
  printColdTurns(cold);
  console.log(`wake_to_first_event_ms=${round(wake, 1)}`);
} finally {
  await stack.stop();
}
