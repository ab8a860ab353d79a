import solid from 'vite-plugin-solid';
import { defineConfig } from 'vitest/config';

const node = { environment: 'node' as const };

export default defineConfig({
  test: {
    reporters: ['default'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      { test: { ...node, name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: ['test/unit/web/**'] } },
      {
        plugins: [solid()],
        resolve: { alias: { '~': new URL('./web/src', import.meta.url).pathname } },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['test/unit/web/**/*.test.{ts,tsx}'],
          setupFiles: ['test/unit/web/setup.ts'],
          // @solidjs/router ships untranspiled .jsx; let Vite compile it instead of Node loading it.
          server: { deps: { inline: [/@solidjs\/router/] } },
        },
      },
      {
        test: {
          ...node,
          name: 'integration',
          include: ['test/integration/**/*.int.test.ts'],
          globalSetup: ['test/helpers/dynamo-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          ...node,
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          globalSetup: ['test/helpers/e2e-global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      { test: { ...node, name: 'infra', include: ['test/infra/**/*.test.ts'], testTimeout: 120_000 } },
    ],
  },
});
