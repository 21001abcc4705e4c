// Mutation testing of the server's rate limiter, caller checks (auth) and alert evaluator
// (`pnpm mutation:server`, docs/testing.md "Mutation score"): StrykerJS mutates each module, runs the
// tests that cover the mutant (vitest runner, per-test coverage, `packages/server/vitest.mutation.config.ts`)
// and reports what no test noticed. Too slow for every CI run, so it is its own script, one module
// at a time: `MUTATION_MODULES=rate-limit pnpm mutation:server`.

/** The modules under mutation and their sources. */
const sources = {
  'rate-limit': ['packages/server/src/platform/rate-limit/rate-limit.ts'],
  // The evaluator and the alert kinds (each kind's window and firing rule), one file per kind.
  evaluate: ['packages/server/src/alerts/evaluate.ts', 'packages/server/src/alerts/kinds/*.ts'],
  auth: [
    'packages/server/src/auth/authorize.ts',
    'packages/server/src/auth/secrets.ts',
    'packages/server/src/auth/session-cache.ts',
  ],
};
const chosen = (process.env.MUTATION_MODULES ?? '').split(',').filter((m) => m !== '');
for (const m of chosen) if (!(m in sources)) throw new Error(`MUTATION_MODULES: no server module ${m}`);
const modules = chosen.length > 0 ? chosen : Object.keys(sources);
const out = `reports/mutation/server-${chosen.length > 0 ? chosen.join('+') : 'all'}`;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: [import.meta.resolve('@stryker-mutator/vitest-runner')],
  vitest: { configFile: 'packages/server/vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: modules.flatMap((m) => sources[m]),
  // The server's tests reach the other packages through node_modules (their dist), as in `pnpm test`.
  ignorePatterns: [
    '/packages/cli',
    '/packages/mcp/src',
    '/docs',
    '/examples',
    '/reports',
    '/data',
    '/deploy',
    '/.stryker-tmp',
  ],
  ignoreStatic: true,
  concurrency: 1,
  timeoutMS: 10_000,
  incremental: true,
  incrementalFile: `${out}/incremental.json`,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `${out}/index.html` },
  jsonReporter: { fileName: `${out}/mutation.json` },
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true },
  tempDirName: '.stryker-tmp-server',
  cleanTempDir: 'always',
};
