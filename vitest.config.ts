import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The repository root, also when vitest is started from a package folder.
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    pool: 'threads',
    // Vitest's default is one worker per core but one; on the two cores of CI that is a single worker,
    // while most test files wait on a server or a child process. Two workers there: the unit tests
    // took 654-803 s instead of 1,128 s at idle, every test passing (docs/testing.md).
    poolOptions: { threads: { maxThreads: Math.max(2, availableParallelism() - 1) } },
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
