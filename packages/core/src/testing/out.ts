import { expect } from 'vitest';
import type { Candles, HLC } from '../types.js';
import { expectInputError } from './bad-input.js';
import { toColumns } from './props.js';

/** The first index where `a` and `b` differ by `Object.is` (+0 and -0 differ), or -1. */
export function sameBits(a: Float64Array, b: Float64Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

/** `n` candles of overlapping waves: every bar moves, no two windows alike (volume 0). */
export function waveCandles(n: number): Candles {
  return toColumns(
    [...Array(n)].map((_, i) => ({
      time: i,
      open: 0,
      high: 10 + Math.sin(i / 3) + (i % 7) / 10,
      low: 9 + Math.sin(i / 4),
      close: 9.5 + Math.sin(i / 5) / 2,
      volume: 0,
    })),
  );
}

/**
 * The checks of an `out` option on a kernel of high, low and close, over 40 candles: the caller's
 * array is the one returned and holds bit for bit the allocating result; a wrong length, an input
 * column, a plain array or `null` is `invalid_option`; a non-finite input still fails with its own
 * error. `run` calls the kernel with `out` when it is given, without it otherwise.
 */
export function checkCandleOut(run: (candles: HLC, out?: unknown) => Float64Array): void {
  const c = waveCandles(40);
  const out = new Float64Array(40).fill(42);
  expect(run(c, out)).toBe(out);
  expect(sameBits(out, run(c))).toBe(-1);
  for (const wrong of [new Float64Array(39), new Float64Array(41), c.high, c.low, c.close, [0], null]) {
    expectInputError(() => run(c, wrong), 'invalid_option');
  }
  const bad = { high: [...c.high], low: [...c.low], close: [...c.close] };
  bad.close[30] = Number.NaN;
  expectInputError(() => run(bad, new Float64Array(40)), 'non_finite');
}
