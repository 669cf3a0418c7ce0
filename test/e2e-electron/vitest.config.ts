/**
 * The desktop app's end-to-end test (npm run test:electron), apart from the unit and api projects:
 * it needs the Electron binary and a display, and says so when it skips.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['test/e2e-electron/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: false,
  },
});
