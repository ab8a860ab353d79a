import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import solid from 'vite-plugin-solid';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = 'http://localhost:8787';

export default defineConfig({
  root,
  plugins: [solid()],
  resolve: { alias: { '~': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
  server: { proxy: { '/api': api, '/auth': api } },
});
