/**
 * Builds the UI into dist/renderer, which the emulator serves under /__emulator/ui/. Preact's JSX
 * goes through Vite's own transform (no plugin): the bundle stays small and the build offline.
 * `base: './'` keeps every asset URL relative, so the same build works under any mount path.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    // The CSP forbids inline script and style: never inline assets into index.html.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
