import { expect } from 'vitest';
import { InputError, type InputErrorCode } from '../errors.js';

/** The `InputError` that `fn` throws; fails the test when it throws something else or nothing. */
export function caughtInputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error('expected an InputError');
}

function expectInputError(fn: () => unknown, code: InputErrorCode): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected InputError ${code}`).toBeInstanceOf(InputError);
  expect((caught as InputError).code).toBe(code);
}

/**
 * Checks the typed errors of a price-series indicator: empty input, NaN and Infinity inside,
 * and each integer option rejecting 0, -1 and 2.5.
 */
export function checkSeriesBadInput(
  fn: (values: ArrayLike<number>, options?: Record<string, number>) => unknown,
  intOptions: readonly string[],
): void {
  expectInputError(() => fn([]), 'empty_input');
  expectInputError(() => fn([1, 2, Number.NaN, 4, 5]), 'non_finite');
  expectInputError(() => fn(new Float64Array([1, Number.POSITIVE_INFINITY, 3])), 'non_finite');
  for (const name of intOptions) {
    for (const bad of [0, -1, 2.5, Number.NaN]) {
      expectInputError(() => fn([1, 2, 3, 4, 5], { [name]: bad }), 'invalid_option');
    }
  }
}

type ColumnsFn = (candles: Record<string, ArrayLike<number>>, options?: Record<string, number>) => unknown;

/**
 * Checks the typed errors of a candle indicator over the columns it reads: a missing or empty
 * column, mismatched lengths, NaN inside, and bad integer options.
 */
export function checkCandleBadInput(fn: ColumnsFn, fields: readonly string[], intOptions: readonly string[]): void {
  const good = (): Record<string, number[]> => Object.fromEntries(fields.map((f) => [f, [10, 11, 12, 11, 10, 12, 13]]));
  expectInputError(() => fn(Object.fromEntries(fields.map((f) => [f, []]))), 'empty_input');
  for (const f of fields) {
    const missing = good();
    delete missing[f];
    expectInputError(() => fn(missing), 'empty_input');
    const nan = good();
    nan[f][3] = Number.NaN;
    expectInputError(() => fn(nan), 'non_finite');
  }
  if (fields.length > 1) {
    const short = good();
    short[fields[fields.length - 1]] = [1, 2];
    expectInputError(() => fn(short), 'length_mismatch');
  }
  for (const name of intOptions) {
    for (const bad of [0, -1, 2.5]) expectInputError(() => fn(good(), { [name]: bad }), 'invalid_option');
  }
}

export { expectInputError };
