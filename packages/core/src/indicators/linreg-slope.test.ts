import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, priceSeries, pricesPast } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { LinRegSlope, linRegSlope } from './linreg-slope.js';

/**
 * TA-Lib computes `(p * sum(x y) - sum(x) * sum(y)) / divisor` from terms of size about
 * `p^3 / 2 * max|y|`, so its slope carries an absolute rounding error of a few
 * `eps * 6 * max|y| / p`. Where the slope itself is that small (a nearly flat window on a
 * generated series) only that bound can be checked: those positions are masked.
 */
function talibRoundingLevel(xs: ArrayLike<number>, period: number, ours: Float64Array, ref: Float64Array) {
  return (i: number): boolean => {
    let m = 0;
    for (let j = Math.max(0, i - period + 1); j <= i; j++) m = Math.max(m, Math.abs(xs[j]));
    return Math.abs(ours[i] - ref[i]) <= 16 * Number.EPSILON * m;
  };
}

describe('linRegSlope', () => {
  it('matches a worked example', () => {
    // A line y = 3 + 2 t has slope 2 everywhere; [1, 2, 4] fits y = 5/6 + 3/2 t.
    const line = Array.from({ length: 40 }, (_, t) => 3 + 2 * t);
    const out = linRegSlope(line, { period: 5 });
    expect(Array.from(out.subarray(0, 4)).every(Number.isNaN)).toBe(true);
    for (let i = 4; i < line.length; i++) expect(out[i]).toBeCloseTo(2, 12);
    expect(linRegSlope([1, 2, 4], { period: 3 })[2]).toBeCloseTo(1.5, 15);
    expect(linRegSlope.lookback({ period: 5 })).toBe(4);
    expect(linRegSlope.lookback()).toBe(13);
  });

  it.skipIf(!sharedDataDir)(
    `matches TA-Lib LINEARREG_SLOPE on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        for (const period of [2, 5, 14, 50]) {
          const ref = talib('LINEARREG_SLOPE', { inReal: candles.close }, { optInTimePeriod: period }).outReal;
          expectClose(linRegSlope(candles.close, { period }), ref, { label: `${name} LINEARREG_SLOPE(${period})` });
        }
      }
    },
  );

  it('matches TA-Lib LINEARREG_SLOPE on generated series', () => {
    const r = reach('a TA-Lib LINEARREG_SLOPE value');
    r.assert(
      fc.property(priceSeries(25, 200), fc.integer({ min: 2, max: 30 }), (xs, period) => {
        r.hitIf(xs.length > linRegSlope.lookback({ period }));
        const ref = talib('LINEARREG_SLOPE', { inReal: xs }, { optInTimePeriod: period }).outReal;
        const ours = linRegSlope(xs, { period });
        expectClose(ours, ref, {
          label: `LINEARREG_SLOPE(${period})`,
          skip: talibRoundingLevel(xs, period, ours, ref),
        });
      }),
      { numRuns: 150 },
    );
  });

  it('holds the streaming properties', () => {
    for (const period of [2, 3, 14]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => linRegSlope(xs, { period }),
        stream: () => new LinRegSlope({ period }),
        lookback: linRegSlope.lookback({ period }),
        constant: { input: 42.5, expected: 0 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(linRegSlope, ['period']);
    expect(() => linRegSlope([1, 2, 3], { period: 1 })).toThrow(/period must be/);
    expect(() => new LinRegSlope().update(Number.NaN)).toThrow(/finite/);
  });
});
