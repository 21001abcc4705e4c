import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AssessmentError } from './assessment-error.js';
import { InputError } from './errors.js';
import { rsi } from './indicators/rsi.js';

type ErrorClasses = { InputError: typeof InputError; AssessmentError: typeof AssessmentError };

const esmPath = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const cjsPath = fileURLToPath(new URL('../dist/index.cjs', import.meta.url));
const built = existsSync(esmPath) && existsSync(cjsPath);
const SKIP = built ? '' : ' (skipped: dist is missing; run `pnpm --filter @marketlens/core build` first)';

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

describe('error classes', () => {
  it('carry a stable code, a name and the class identity', () => {
    const e = thrown(() => rsi([], { period: 14 }));
    expect(e).toBeInstanceOf(InputError);
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ name: 'InputError', code: 'empty_input', field: 'values' });
    const a = new AssessmentError('mark_not_positive', 'no price');
    expect(a).toBeInstanceOf(AssessmentError);
    expect(a).toMatchObject({ name: 'AssessmentError', code: 'position_not_assessable', reason: 'mark_not_positive' });
    expect(a instanceof InputError).toBe(false);
    expect(e instanceof AssessmentError).toBe(false);
  });

  it('do not claim look-alikes, plain errors or non-objects', () => {
    expect(new Error('x') instanceof InputError).toBe(false);
    expect({ name: 'InputError', code: 'empty_input' } instanceof InputError).toBe(false);
    expect((null as unknown) instanceof InputError).toBe(false);
    expect(('InputError' as unknown) instanceof InputError).toBe(false);
  });

  it('keep the ordinary prototype test for a subclass a user derives', () => {
    class MyError extends InputError {}
    const mine = new MyError('invalid_option', 'mine');
    expect(mine instanceof MyError).toBe(true);
    expect(mine instanceof InputError).toBe(true);
    expect(new InputError('invalid_option', 'core') instanceof MyError).toBe(false);
  });

  it.skipIf(!built)(`are one identity across the ESM and CommonJS builds${SKIP}`, async () => {
    const cjs = createRequire(import.meta.url)(cjsPath) as ErrorClasses & { rsi: typeof rsi };
    const esm = (await import(pathToFileURL(esmPath).href)) as ErrorClasses & { rsi: typeof rsi };
    expect(cjs.InputError).not.toBe(esm.InputError);
    const fromCjs = thrown(() => cjs.rsi([1, Number.NaN]));
    const fromEsm = thrown(() => esm.rsi([1, Number.NaN]));
    for (const e of [fromCjs, fromEsm]) {
      expect(e instanceof cjs.InputError).toBe(true);
      expect(e instanceof esm.InputError).toBe(true);
      expect(e instanceof InputError).toBe(true);
      expect(e instanceof esm.AssessmentError).toBe(false);
      expect(e).toMatchObject({ code: 'non_finite', index: 1 });
    }
    const a = new cjs.AssessmentError('entry_not_positive', 'no entry');
    expect(a instanceof esm.AssessmentError).toBe(true);
    expect(a instanceof AssessmentError).toBe(true);
    expect(a instanceof esm.InputError).toBe(false);
  });
});
