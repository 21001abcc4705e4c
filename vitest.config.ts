import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The repository root, also when vitest is started from a package folder.
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    pool: 'threads',
    testTimeout: 60_000,
    // The skip reporter names every skipped test and, under CI, fails a run that skipped any
    // (docs/testing.md).
    // Absolute, so that a run started from a package folder finds it too.
    reporters: ['default', fileURLToPath(new URL('./scripts/skip-reporter.mjs', import.meta.url))],
  },
});
