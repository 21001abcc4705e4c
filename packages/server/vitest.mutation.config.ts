import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// The vitest config of the server's mutation run (`pnpm mutation:server`, stryker.server.config.mjs):
// the tests that exercise the mutated module, so its score is what they catch. The route, MCP and
// fuzz suites reach these modules too but would run for every mutant; the module's own tests and
// the matrix written for it are the measure. No skip reporter: Stryker reports for itself.

/** The tests of each module under mutation (MUTATION_MODULES). */
export const SERVER_MUTATION_TESTS: Record<string, string[]> = {
  'rate-limit': ['packages/server/src/platform/rate-limit/*.test.ts'],
  evaluate: ['packages/server/src/alerts/evaluate*.test.ts'],
  auth: [
    'packages/server/test/reliability/auth-matrix.test.ts',
    'packages/server/src/auth/session-cache*.test.ts',
    'packages/server/src/auth/authorize*.test.ts',
    'packages/server/src/auth/secrets*.test.ts',
  ],
};

const modules = (process.env.MUTATION_MODULES ?? '').split(',').filter((m) => m !== '');
const chosen = modules.length > 0 ? modules : Object.keys(SERVER_MUTATION_TESTS);

export default defineConfig({
  // The sandbox root (Stryker copies the repository into .stryker-tmp-server/), like the root config.
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: chosen.flatMap((m) => SERVER_MUTATION_TESTS[m] ?? []),
    exclude: configDefaults.exclude,
    pool: 'threads',
    testTimeout: 60_000,
  },
});
