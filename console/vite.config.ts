/**
 * Builds the console (Preact + TypeScript) into dist/console, served by the gateway at /console/. Everything it
 * needs is bundled: no CDN, so self-hosted and offline installs work. No module-preload polyfill (it would be an
 * inline script, which the console's Content-Security-Policy refuses).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/console/',
  publicDir: 'public',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
});
