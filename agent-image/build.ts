import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const DEFAULT_OUTFILE = fileURLToPath(new URL('./dist/server.mjs', import.meta.url));

/**
 * Bundles the agent server into one ESM file for the image: no node_modules to copy, and the
 * claude CLI is installed separately (pinned, globally) so it is never part of the bundle.
 */
export const bundleAgentServer = async (outfile = DEFAULT_OUTFILE): Promise<string> => {
  const result = await build({
    write: false,
    entryPoints: [fileURLToPath(new URL('./src/main.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    // Node 20 runs the tests here; the image runs Node 22.
    target: 'node20',
    minify: true,
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    // CommonJS dependencies call `require` for Node built-ins; ESM output has none of its own.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  // Write-then-rename: a CDK synth and a test may bundle at the same time, and a process started
  // from the file must never read half of it.
  await mkdir(dirname(outfile), { recursive: true });
  for (const file of result.outputFiles) {
    const temp = `${file.path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, file.contents);
    await rename(temp, file.path);
  }
  return outfile;
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await bundleAgentServer(process.argv[2]);
}
