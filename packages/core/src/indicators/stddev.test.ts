import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput } from '../testing/bad-input.js';
import { checkIndicatorProperties, priceSeries, pricesPast } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { StdDev, stdDev, windowStdDevInto } from './stddev.js';

const EPS = Number.EPSILON;

/**
 * Independent reference: for every window, the mean from a compensated (Neumaier) sum, then
 * the corrected two-pass sum of squared deviations. Accurate to a few ulps of the variance.
 */
function exactStdDev(xs: ArrayLike<number>, period: number): Float64Array {
  const out = new Float64Array(xs.length).fill(Number.NaN);
  for (let i = period - 1; i < xs.length; i++) {
    let s = 0;
    let c = 0;
    for (let j = i - period + 1; j <= i; j++) {
      const x = xs[j];
      const t = s + x;
      c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
      s = t;
    }
    const m = (s + c) / period;
    let sd = 0;
    let ss = 0;
    for (let j = i - period + 1; j <= i; j++) {
      const d = xs[j] - m;
      sd += d;
      ss += d * d;
    }
    out[i] = Math.sqrt(Math.max(0, ss - (sd * sd) / period) / period);
  }
  return out;
}

/**
 * Pointwise: relative 1e-12 of the value, plus 1e-15 of the price for windows whose spread is
 * at the rounding level of the prices themselves (the inputs carry 1.1e-16 relative error).
 */
function expectExact(actual: Float64Array, xs: ArrayLike<number>, period: number, label: string): void {
  const ref = exactStdDev(xs, period);
  for (let i = 0; i < xs.length; i++) {
    if (Number.isNaN(ref[i])) {
      expect(actual[i], `${label} NaN at ${i}`).toBeNaN();
      continue;
    }
    const tol = 1e-12 * ref[i] + 1e-15 * Math.abs(xs[i]);
    if (!(Math.abs(actual[i] - ref[i]) <= tol)) {
      throw new Error(`${label} at ${i}: ${actual[i]} vs exact ${ref[i]}`);
    }
  }
}

/**
 * TA-Lib STDDEV keeps running sums of x and x^2 over the whole series and returns
 * `sqrt(E[x^2] - E[x]^2)`, or 0 when that variance is below its absolute 1e-8 threshold. Each
 * step rounds the running sum of squares (about `period * max x^2`) twice, so after `i` steps its
 * variance carries an absolute error of at most about `4 * (i + 1) * eps * max_{j<=i} x_j^2`:
 * that is the tolerance on the variance here (a rounding-error bound of TA-Lib's algorithm, not a
 * loosened threshold). Where TA-Lib reads 0 the exact variance must be below 1e-8 (plus that bound).
 */
function expectTalibStdDev(actual: Float64Array, xs: ArrayLike<number>, period: number, label: string): void {
  const ref = talib('STDDEV', { inReal: xs }, { optInTimePeriod: period, optInNbDev: 1 }).outReal;
  let maxSq = 0;
  for (let i = 0; i < xs.length; i++) {
    maxSq = Math.max(maxSq, xs[i] * xs[i]);
    if (Number.isNaN(ref[i]) || Number.isNaN(actual[i])) {
      expect(Number.isNaN(actual[i]), `${label} lookback at ${i}`).toBe(Number.isNaN(ref[i]));
      continue;
    }
    const bound = 4 * (i + 1) * EPS * maxSq;
    const ours = actual[i] * actual[i];
    const ok = ref[i] === 0 ? ours < 1e-8 + bound : Math.abs(ours - ref[i] * ref[i]) <= bound;
    if (!ok) throw new Error(`${label} at ${i}: ${actual[i]} vs TA-Lib ${ref[i]} (variance bound ${bound})`);
  }
}

describe('stdDev', () => {
  it('matches a worked example', () => {
    // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, population variance 4.
    const out = stdDev([2, 4, 4, 4, 5, 5, 7, 9], { period: 8 });
    expect(out[7]).toBe(2);
    expect(stdDev([2, 4, 4, 4, 5, 5, 7, 9], { period: 8, nbDev: 2.5 })[7]).toBe(5);
    expect(Array.from(stdDev([1, 3, 3, 3], { period: 2 }))).toEqual([Number.NaN, 1, 0, 0]);
    const flat = stdDev([1, 3, 3, 3, 3], { period: 3 });
    expect(flat[2]).toBeCloseTo(Math.sqrt(8 / 9), 15);
    expect([flat[3], flat[4]]).toEqual([0, 0]);
    expect(stdDev.lookback({ period: 20 })).toBe(19);
    expect(stdDev.lookback()).toBe(19);
  });

  it('reads 0 for period 1 (a single value has no spread)', () => {
    expect(Array.from(stdDev([3, 1, 4, 1, 5], { period: 1 }))).toEqual([0, 0, 0, 0, 0]);
  });

  it('stays exact where E[x^2] - E[x]^2 cancels: tiny spread on a large price', () => {
    const xs = Array.from({ length: 400 }, (_, i) => 1e6 + ((i * 7919) % 13) * 1e-4 + (i % 50 === 0 ? 5e3 : 0));
    for (const period of [3, 10, 30]) expectExact(stdDev(xs, { period }), xs, period, `synthetic(${period})`);
  });

  it.skipIf(!sharedDataDir)(
    `equals the exact two-pass deviation and TA-Lib STDDEV within its rounding bound on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        for (const period of [2, 5, 20, 200]) {
          const out = stdDev(candles.close, { period });
          expectExact(out, candles.close, period, `${name} STDDEV(${period})`);
          expectTalibStdDev(out, candles.close, period, `${name} STDDEV(${period}) vs TA-Lib`);
        }
        const scaled = stdDev(candles.close, { period: 10, nbDev: 2 });
        const ref = talib('STDDEV', { inReal: candles.close }, { optInTimePeriod: 10, optInNbDev: 2 }).outReal;
        expect(scaled.length).toBe(ref.length);
        for (let i = 0; i < ref.length; i++) expect(Number.isNaN(scaled[i])).toBe(Number.isNaN(ref[i]));
      }
    },
  );

  it('equals the exact two-pass deviation on generated series', () => {
    const r = reach('a standard deviation');
    r.assert(
      fc.property(priceSeries(35, 300), fc.integer({ min: 2, max: 40 }), (xs, period) => {
        r.hitIf(xs.length > stdDev.lookback({ period }));
        expectExact(stdDev(xs, { period }), xs, period, `generated(${period})`);
      }),
      { numRuns: 200 },
    );
  });

  it('exposes the helper for Bollinger Bands', () => {
    const xs = [5, 1, 4, 4, 9, 2];
    const out = new Float64Array(xs.length).fill(-1);
    windowStdDevInto(xs, xs.length, 3, out);
    expect(out[0]).toBe(-1);
    expect(out[1]).toBe(-1);
    expect(Array.from(out.subarray(2))).toEqual(Array.from(stdDev(xs, { period: 3 }).subarray(2)));
  });

  it('holds the streaming properties', () => {
    for (const [period, nbDev] of [
      [1, 1],
      [2, 1],
      [3, 2],
      [14, 1],
    ]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => stdDev(xs, { period, nbDev }),
        stream: () => new StdDev({ period, nbDev }),
        lookback: stdDev.lookback({ period }),
        constant: { input: 42.5, expected: 0 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(stdDev, ['period']);
    expect(() => stdDev([1, 2, 3], { nbDev: -1 })).toThrow(/nbDev must be/);
    expect(() => new StdDev().update(Number.NaN)).toThrow(/finite/);
  });
});
