import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildWebIfStale } from '../../infra/local/src/web-build';
import { devToken, startLocalStack } from '../helpers/local-stack';
import { benchFirstEvent } from './first-event';
import { benchResumeGate } from './resume-gate';
import { benchApiBundle, spaJsGzipBytes } from './sizes';
import { round } from './stats';
import { benchTurnOverhead } from './turn-overhead';
import { benchWake } from './wake';

/** `npm run bench`: prints figures, asserts nothing; the last lines are name=value for scripts. */
const progress = (s: string) => process.stderr.write(`• ${s}\n`);
const dir = await mkdtemp(join(tmpdir(), 'rp-bench-'));
/** `BENCH_ONLY=wake npm run bench` measures one figure alone (the machine is shared). */
const only = process.env.BENCH_ONLY;

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
  console.log(`wake_to_first_event_ms=${round(wake, 1)}`);
} finally {
  await stack.stop();
}
