import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The repository root, also when vitest is started from a package folder.
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    pool: 'threads',
    testTimeout: 60_000,
    // One fast-check seed per run, printed at its start and replayed from FC_SEED (docs/testing.md).
    globalSetup: [fileURLToPath(new URL('./scripts/fc-seed.global.mjs', import.meta.url))],
    setupFiles: [fileURLToPath(new URL('./scripts/fc-seed.setup.mjs', import.meta.url))],
    // The skip reporter names every skipped test and, under CI, fails a run that skipped any
    // (docs/testing.md).
    // Absolute, so that a run started from a package folder finds it too.
    reporters: ['default', fileURLToPath(new URL('./scripts/skip-reporter.mjs', import.meta.url))],
  },
});
