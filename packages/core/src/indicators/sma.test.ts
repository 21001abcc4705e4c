import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput, expectInputError } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, pricesPast } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { SMA, sma } from './sma.js';

describe('sma', () => {
  it('matches a worked example', () => {
    expect(Array.from(sma([1, 2, 3, 4, 5], { period: 3 }))).toEqual([Number.NaN, Number.NaN, 2, 3, 4]);
    expect(sma.lookback({ period: 3 })).toBe(2);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib SMA on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const period of [2, 5, 20, 200]) {
        const ref = talib('SMA', { inReal: candles.close }, { optInTimePeriod: period }).outReal;
        expectClose(sma(candles.close, { period }), ref, { label: `${name} SMA(${period})` });
      }
    }
  });

  it('holds the streaming properties', () => {
    for (const period of [1, 3, 14]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => sma(xs, { period }),
        stream: () => new SMA({ period }),
        lookback: sma.lookback({ period }),
        constant: { input: 42.5, expected: 42.5 },
      });
    }
  });

  it("writes into the caller's array with out, and checks it", () => {
    const x = Float64Array.from([1, 2, 3, 4, 5, 6, 7]);
    const out = new Float64Array(7).fill(42);
    expect(sma(x, { ...{ period: 3 }, out })).toBe(out);
    expect(Array.from(out)).toEqual(Array.from(sma(x, { period: 3 })));
    expectInputError(() => sma(x, { ...{ period: 3 }, out: new Float64Array(6) }), 'invalid_option');
    expectInputError(() => sma(x, { ...{ period: 3 }, out: x }), 'invalid_option');
    expectInputError(() => sma(x, { ...{ period: 3 }, out: [0] as unknown as Float64Array }), 'invalid_option');
    // a non-finite input still fails with its own error, not a half-written result
    expectInputError(() => sma([1, 2, Number.NaN, 4], { ...{ period: 3 }, out: new Float64Array(4) }), 'non_finite');
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(sma, ['period']);
    expect(() => new SMA().update(Number.NaN)).toThrow(/finite/);
  });
});
