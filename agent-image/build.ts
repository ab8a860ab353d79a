import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const DEFAULT_OUTFILE = fileURLToPath(new URL('./dist/server.mjs', import.meta.url));

/**
 * Bundles the agent server into one ESM file for the image: no node_modules to copy, and the
 * claude CLI is installed separately (pinned, globally) so it is never part of the bundle.
 */
export const bundleAgentServer = async (outfile = DEFAULT_OUTFILE): Promise<string> => {
  await build({
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
  return outfile;
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await bundleAgentServer(process.argv[2]);
}
