import { expect } from 'vitest';

/** Options of {@link expectClose}. */
export interface CloseOptions {
  /** Relative tolerance against max(|expected|, mean |expected|). Default 1e-9. */
  rel?: number;
  /**
   * Absolute tolerance floor (default 0): for a bounded quantity whose natural scale is known (an
   * oscillator in -1..1), where a window's sums cancel to a residue near 0 whose last digits depend
   * on the order of summation.
   */
  atol?: number;
  /** Positions to skip (documented convention differences such as flat windows). */
  skip?: (i: number) => boolean;
  /** Only compare from this index on (convergence of an unstable reference). */
  from?: number;
  /** A label for failure messages. */
  label?: string;
}

/**
 * Asserts that `actual` has NaN exactly where `expected` does (identical lookback) and
 * otherwise agrees within a relative tolerance scaled to the series' magnitude.
 */
export function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, options: CloseOptions = {}): void {
  const rel = options.rel ?? 1e-9;
  const label = options.label ?? '';
  expect(actual.length, `${label} length`).toBe(expected.length);
  let scale = 0;
  let count = 0;
  for (let i = 0; i < expected.length; i++) {
    if (!Number.isNaN(expected[i])) {
      scale += Math.abs(expected[i]);
      count++;
    }
  }
  scale = count ? scale / count : 1;
  const from = options.from ?? 0;
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i];
    const a = actual[i];
    if (Number.isNaN(e) || Number.isNaN(a)) {
      if (Number.isNaN(e) !== Number.isNaN(a)) {
        throw new Error(`${label} lookback differs at index ${i}: actual ${a}, expected ${e}`);
      }
      continue;
    }
    if (i < from || options.skip?.(i)) continue;
    const tol = Math.max(rel * Math.max(Math.abs(e), scale), options.atol ?? 0);
    if (!(Math.abs(a - e) <= tol)) {
      throw new Error(
        `${label} differs at index ${i}: actual ${a}, expected ${e} (|diff| ${Math.abs(a - e)} > ${tol})`,
      );
    }
  }
}
