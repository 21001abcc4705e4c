import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// The vitest config of the mutation run (`pnpm mutation`, stryker.config.mjs): the tests of the
// mutated modules only, so a module's score is what its own tests catch. The end-to-end tests
// (analyze, overview, the simulation) and the modules built on top (levels are read by signal,
// plan, screeners and position) cover nearly every mutant and would run for each, which makes a
// run hours long on two cores. No skip reporter: Stryker reports for itself.

/** The modules under mutation (as in stryker.config.mjs): MUTATION_MODULES, default all seven. */
const modules = (process.env.MUTATION_MODULES ?? '').split(',').filter((m) => m !== '');
const folders =
  modules.length > 0 ? modules : ['levels', 'plan', 'signal', 'feargreed', 'screeners', 'position', 'portfolio'];

export default defineConfig({
  // The sandbox root (Stryker copies the repository into .stryker-tmp/), like the root config.
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: folders.map((m) => `packages/core/src/${m}/**/*.test.ts`),
    // MUTATION_BASELINE=1 leaves out the tests written against earlier survivors
    // (`*.mutants.test.ts`): the score of the module's other tests alone.
    exclude: process.env.MUTATION_BASELINE
      ? [...configDefaults.exclude, '**/*.mutants.test.ts']
      : configDefaults.exclude,
    setupFiles: [fileURLToPath(new URL('./vitest.mutation.setup.ts', import.meta.url))],
    pool: 'threads',
    testTimeout: 60_000,
  },
});
