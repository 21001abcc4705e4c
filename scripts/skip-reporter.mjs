// A vitest reporter (beside the default one, vitest.config.ts): after a run it prints the closing
// counts, `vitest: N passed, N failed, N skipped`, and names every skipped test with its file.
// Under CI (`CI` set, and not `0` or `false`) a skipped test fails the run: CI has every
// prerequisite (../shared/data, Chromium, `script`), so a skip there hides a broken set-up. A run
// filtered by test name (`-t`) is the exception: it skips the other tests on purpose.
// With MARKETLENS_TEST_SUMMARY set to a file name it also writes the counts line there (.ci/run
// reads it back).
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const underCI = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

/** @implements {import('vitest/node').Reporter} */
export default class SkipReporter {
  /** A run filtered by test name (`-t`) skips the other tests on purpose: counted, never failed. */
  filtered = false;

  /** @param {import('vitest/node').Vitest} vitest */
  onInit(vitest) {
    this.filtered = vitest.config.testNamePattern !== undefined;
  }

  /** @param {ReadonlyArray<import('vitest/node').TestModule>} testModules */
  onTestRunEnd(testModules) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    /** @type {string[]} */
    const skipped = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const { state } = test.result();
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else if (state === 'skipped') {
          counts.skipped++;
          skipped.push(`${relative(process.cwd(), module.moduleId)} > ${test.fullName}`);
        }
      }
    }
    const line = `vitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
    if (skipped.length > 0) console.log(`\nSkipped tests:\n${skipped.map((s) => `  ${s}`).join('\n')}`);
    console.log(`\n${line}`);
    if (process.env.MARKETLENS_TEST_SUMMARY) writeFileSync(process.env.MARKETLENS_TEST_SUMMARY, `${line}\n`);
    if (underCI && !this.filtered && counts.skipped > 0) {
      console.error(
        `\nUnder CI no test may skip: every prerequisite is installed there, so ${counts.skipped} skipped ` +
          'test(s) mean a broken set-up or a stray `.skip`/`.todo` (see docs/testing.md).',
      );
      process.exitCode = 1;
    }
  }
}
