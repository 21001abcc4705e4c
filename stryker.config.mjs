// Mutation testing of core's decision modules (`pnpm mutation`, docs/testing.md "Mutation score").
// StrykerJS mutates each module's source, runs the core tests that cover the mutant (vitest
// runner, per-test coverage) and reports which mutants no test noticed. Too slow for every CI
// run, so it is its own script.
//
// `pnpm mutation` runs it once per module (MUTATION_MODULES=<module>, reports and incremental file
// under reports/mutation/<module>/); `MUTATION_MODULES=levels,plan pnpm mutation` runs some only.
// Run directly without MUTATION_MODULES, it mutates all seven at once (reports/mutation/all/).

/** The modules under mutation, folders of packages/core/src. */
const allModules = ['levels', 'plan', 'signal', 'feargreed', 'screeners', 'position', 'portfolio'];
const chosen = (process.env.MUTATION_MODULES ?? '').split(',').filter((m) => m !== '');
for (const m of chosen) if (!allModules.includes(m)) throw new Error(`MUTATION_MODULES: no module ${m}`);
const modules = chosen.length > 0 ? chosen : allModules;
// each set of modules keeps its own incremental file, so a partial run never discards the others
const out = `reports/mutation/${chosen.length > 0 ? chosen.join('+') : 'all'}`;

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // resolved here: under pnpm, Stryker cannot find its plugins from its own folder
  plugins: [import.meta.resolve('@stryker-mutator/vitest-runner')],
  vitest: { configFile: 'packages/core/vitest.mutation.config.ts', related: true },
  coverageAnalysis: 'perTest',
  mutate: [
    ...modules.map((m) => `packages/core/src/${m}/**/*.ts`),
    '!packages/core/src/**/*.test.ts',
    // test support, not shipped
    '!packages/core/src/portfolio/test-fixtures.ts',
  ],
  // Only core and the root files its tests need go into the sandbox; other packages are reached
  // through node_modules (their dist), as core's tests do.
  ignorePatterns: [
    'packages/server',
    'packages/cli',
    'packages/mcp',
    'packages/exchanges',
    'packages/contract',
    'docs',
    'examples',
    'reports',
    '/data',
    // the server's mutation run (stryker.server.config.mjs) keeps its sandboxes here
    '/.stryker-tmp-server',
  ],
  // Static mutants (module-level constants) would rerun every test for each; they are not
  // counted (Stryker reports them as ignored).
  ignoreStatic: true,
  // Two cores on CI's machine; one is left for the vitest worker's own threads.
  concurrency: 2,
  // a mutant that loops forever costs this much more than its tests plus a worker restart: keep it short
  timeoutMS: 4_000,
  incremental: true,
  incrementalFile: `${out}/incremental.json`,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `${out}/index.html` },
  jsonReporter: { fileName: `${out}/mutation.json` },
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
