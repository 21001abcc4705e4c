import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput, expectInputError } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, pricesPast } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { BBands, bbands } from './bbands.js';

/** The population standard deviation of each window by the plain two-pass formula. */
function twoPassSigma(xs: ArrayLike<number>, period: number): Float64Array {
  const out = new Float64Array(xs.length).fill(Number.NaN);
  for (let i = period - 1; i < xs.length; i++) {
    let sum = 0;
    for (let j = i - period + 1; j <= i; j++) sum += xs[j];
    const mean = sum / period;
    let ss = 0;
    for (let j = i - period + 1; j <= i; j++) ss += (xs[j] - mean) ** 2;
    out[i] = Math.sqrt(ss / period);
  }
  return out;
}

describe('bbands', () => {
  it('matches a worked example', () => {
    const s = Math.sqrt(2 / 3); // sigma of [1, 2, 3]
    const out = bbands([1, 2, 3, 3, 3, 3], { period: 3, stdDev: 2 });
    expect(out.middle[2]).toBe(2);
    expect(out.upper[2]).toBeCloseTo(2 + 2 * s, 14);
    expect(out.lower[2]).toBeCloseTo(2 - 2 * s, 14);
    expect(out.percentB[2]).toBeCloseTo((1 + 2 * s) / (4 * s), 14);
    expect(out.width[2]).toBeCloseTo(2 * s, 14);
    // a flat window: the bands meet the middle, %B reads 0.5, the width 0
    expect([out.upper[5], out.middle[5], out.lower[5], out.percentB[5], out.width[5]]).toEqual([3, 3, 3, 0.5, 0]);
    expect(out.middle[1]).toBeNaN();
    expect(bbands.lookback({ period: 20 })).toBe(19);
  });

  it.skipIf(!sharedDataDir)(
    `matches TA-Lib BBANDS's middle and an exact two-pass reference for the bands (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        const xs = candles.close;
        for (const period of [2, 5, 20, 50]) {
          for (const stdDev of [1, 2, 2.5]) {
            const label = `${name} BBANDS(${period}, ${stdDev})`;
            const out = bbands(xs, { period, stdDev });
            const ref = talib(
              'BBANDS',
              { inReal: xs },
              { optInTimePeriod: period, optInNbDevUp: stdDev, optInNbDevDn: stdDev, optInMAType: 0 },
            );
            expectClose(out.middle, ref.outRealMiddleBand, { label: `${label} middle`, rel: 0 });
            const sigma = twoPassSigma(xs, period);
            const upper = out.middle.map((m, i) => m + stdDev * sigma[i]);
            const lower = out.middle.map((m, i) => m - stdDev * sigma[i]);
            // Both are exact to a few ulps of the price (measured at most 4e-14 relative).
            expectClose(out.upper, upper, { label: `${label} upper`, rel: 1e-12 });
            expectClose(out.lower, lower, { label: `${label} lower`, rel: 1e-12 });
            const pb = upper.map((u, i) => (u === lower[i] ? 0.5 : (xs[i] - lower[i]) / (u - lower[i])));
            // %B divides by the band width: a few ulps of the price become 1e-14 * price / sigma.
            expectClose(out.percentB, pb, {
              label: `${label} %B`,
              rel: 1e-6,
              skip: (i) => sigma[i] !== 0 && sigma[i] < 1e-6 * out.middle[i],
            });
            const width = upper.map((u, i) => (u - lower[i]) / out.middle[i]);
            expectClose(out.width, width, { label: `${label} width`, rel: 1e-9 });
          }
        }
      }
    },
  );

  it.skipIf(!sharedDataDir)(
    `is within TA-Lib BBANDS's own rounding error of it (skips when ${sharedDataSkipReason})`,
    () => {
      // TA-Lib's variance is E[x^2] - E[x]^2 from running sums of x and x^2 carried over the whole
      // series. Up to index i, each of the ~2(i + 1) additions and subtractions into those sums
      // errs by at most eps/2 of a total bounded by period * M^2 (M = max |x| so far), so after
      // division by period and subtraction of the rounded squared mean, its variance is off by at
      // most delta = (4 (i + 1) + 4) eps M^2. A variance error delta moves sigma by at most
      // min(sqrt(delta), delta / sigma), and where TA-Lib's variance falls below 1e-8 it reads
      // sigma 0, so the true sigma there is at most sqrt(1e-8 + delta).
      for (const { name, candles } of loadSharedSeries()) {
        const xs = candles.close;
        for (const period of [2, 5, 20, 50]) {
          const stdDev = 2;
          const out = bbands(xs, { period, stdDev });
          const ref = talib(
            'BBANDS',
            { inReal: xs },
            { optInTimePeriod: period, optInNbDevUp: stdDev, optInNbDevDn: stdDev, optInMAType: 0 },
          );
          let max = 0;
          for (let i = 0; i < xs.length; i++) {
            max = Math.max(max, Math.abs(xs[i]));
            if (i < period - 1) continue;
            const delta = (4 * (i + 1) + 4) * Number.EPSILON * max * max;
            const mid = out.middle[i];
            const sigma = (out.upper[i] - mid) / stdDev;
            const zeroed = ref.outRealUpperBand[i] === ref.outRealMiddleBand[i];
            const dSigma = zeroed ? Math.sqrt(1e-8 + delta) : Math.min(Math.sqrt(delta), delta / sigma);
            // plus the rounding of middle +- stdDev * sigma, twice
            const tol = stdDev * dSigma + 4 * Number.EPSILON * Math.abs(ref.outRealUpperBand[i]);
            for (const [ours, theirs] of [
              [out.upper[i], ref.outRealUpperBand[i]],
              [out.lower[i], ref.outRealLowerBand[i]],
            ]) {
              if (!(Math.abs(ours - theirs) <= tol)) {
                throw new Error(`${name} BBANDS(${period}) at ${i}: ${ours} vs TA-Lib ${theirs}, tolerance ${tol}`);
              }
            }
          }
        }
      }
    },
  );

  it('holds the streaming properties', () => {
    for (const [period, stdDev] of [
      [1, 2],
      [3, 2],
      [20, 1.5],
      [5, 0],
    ]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => bbands(xs, { period, stdDev }),
        stream: () => new BBands({ period, stdDev }),
        lookback: bbands.lookback({ period, stdDev }),
        constant: { input: 42.5, expected: { upper: 42.5, middle: 42.5, lower: 42.5, percentB: 0.5, width: 0 } },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(bbands, ['period']);
    expectInputError(() => bbands([1, 2, 3], { stdDev: -1 }), 'invalid_option');
    expectInputError(() => bbands([1, 2, 3], { stdDev: Number.NaN }), 'invalid_option');
    expect(() => new BBands().update(Number.POSITIVE_INFINITY)).toThrow(/finite/);
  });

  it("writes into the caller's five columns with out, and checks them", () => {
    const x = [3, 1, 4, 1, 5, 9, 2, 6];
    const fresh = (n = 8) => ({
      upper: new Float64Array(n).fill(42),
      middle: new Float64Array(n).fill(42),
      lower: new Float64Array(n).fill(42),
      percentB: new Float64Array(n).fill(42),
      width: new Float64Array(n).fill(42),
    });
    const out = fresh();
    const columns = { ...out };
    expect(bbands(x, { period: 3, out })).toBe(out);
    const ref = bbands(x, { period: 3 });
    for (const k of ['upper', 'middle', 'lower', 'percentB', 'width'] as const) {
      expect(out[k]).toBe(columns[k]);
      expect(Array.from(out[k])).toEqual(Array.from(ref[k]));
    }
    expectInputError(() => bbands(x, { period: 3, out: { ...fresh(), width: new Float64Array(7) } }), 'invalid_option');
    expectInputError(
      () => bbands(new Float64Array(x), { period: 3, out: { ...fresh(), lower: undefined } as never }),
      'invalid_option',
    );
    const shared = fresh();
    expectInputError(() => bbands(x, { period: 3, out: { ...shared, lower: shared.upper } }), 'invalid_option');
    const input = new Float64Array(x);
    expectInputError(() => bbands(input, { period: 3, out: { ...fresh(), middle: input } }), 'invalid_option');
    expectInputError(() => bbands(x, { period: 3, out: null as never }), 'invalid_option');
    expectInputError(() => bbands([1, 2, Number.NaN, 4], { period: 3, out: fresh(4) }), 'non_finite');
    expectInputError(() => bbands([1, Number.POSITIVE_INFINITY], { period: 3, out: fresh(2) }), 'non_finite');
  });
});
