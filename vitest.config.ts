import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      // API tests start real servers on port 0; each file gets its own emulator and data folder.
      { extends: true, test: { name: 'api', include: ['test/api/**/*.test.ts'], testTimeout: 20_000, hookTimeout: 30_000 } },
      // The renderer's pure logic (no DOM): JSX, if a module imports a component, is Preact's.
      {
        extends: true,
        oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
        test: { name: 'renderer', include: ['renderer/test/**/*.test.ts'] },
      },
      // Browser tests: Debian's Chromium driving the built UI (dist/renderer) served by a real emulator.
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 } },
    ],
  },
});
