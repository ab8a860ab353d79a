import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** The api Lambda as NodejsFunction would bundle it (minified ESM for Node 22), and its cold import. */
export async function benchApiBundle(outDir: string) {
  const outfile = join(outDir, 'api.mjs');
  await build({
    entryPoints: [resolve('functions/src/api/handler.ts')],
    bundle: true,
    minify: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    outfile,
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
    logLevel: 'silent',
  });
  const bytes = statSync(outfile).size;
  const env = {
    TABLE_NAME: 't',
    AWS_REGION: 'us-east-1',
    JWKS_URL: 'https://example.invalid/jwks.json',
    JWT_ISSUER: 'https://example.invalid',
    JWT_AUDIENCE: 'a',
    RUNNER_FUNCTION_NAME: 'runner',
    FLEET_FUNCTION_NAME: 'fleet',
    SCHEDULE_GROUP: 'reprise-dev',
    SCHEDULER_ROLE_ARN: 'arn:aws:iam::123456789012:role/s',
    SCHEDULED_FUNCTION_ARN: 'arn:aws:lambda:us-east-1:123456789012:function:scheduled',
    AGENT_CLUSTER_ARN: 'arn:aws:ecs:us-east-1:123456789012:cluster/c',
    AGENT_SUBNET_IDS: 'subnet-1',
    AGENT_SECURITY_GROUP_ID: 'sg-1',
    EFS_FILE_SYSTEM_ID: 'fs-1',
    ARCHIVE_BUCKET: 'b',
    PAYLOAD_BUCKET: 'p',
    AGENT_IMAGE_URI: 'i',
    AGENT_EXECUTION_ROLE_ARN: 'arn:aws:iam::123456789012:role/x',
    AGENT_ROLE_BOUNDARY_ARN: 'arn:aws:iam::123456789012:policy/b',
    AGENT_ROLE_PATH: '/reprise/dev/agents/',
    AGENT_LOG_GROUP: 'g',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  Object.assign(process.env, env);
  const start = performance.now();
  await import(`${outfile}?cold=${Date.now()}`);
  return { bytes, coldImportMs: performance.now() - start };
}

/** Gzipped size of the SPA's JavaScript (web/dist must be built). */
export function spaJsGzipBytes(dist = resolve('web/dist')): number {
  const files = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js'));
  return files.reduce((sum, f) => sum + gzipSync(readFileSync(join(dist, 'assets', f))).length, 0);
}
