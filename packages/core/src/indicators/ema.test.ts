import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput, expectInputError } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, pricesPast } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { EMA, ema } from './ema.js';

describe('ema', () => {
  it('is seeded by the SMA of the first period values', () => {
    const out = ema([2, 4, 6, 8], { period: 3 });
    expect(out[2]).toBe(4);
    expect(out[3]).toBe(4 + (8 - 4) * 0.5);
    expect(ema.lookback({ period: 3 })).toBe(2);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib EMA on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const period of [2, 9, 20, 50]) {
        const ref = talib('EMA', { inReal: candles.close }, { optInTimePeriod: period }).outReal;
        expectClose(ema(candles.close, { period }), ref, { label: `${name} EMA(${period})` });
      }
    }
  });

  it('holds the streaming properties', () => {
    for (const period of [1, 2, 10]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => ema(xs, { period }),
        stream: () => new EMA({ period }),
        lookback: ema.lookback({ period }),
        constant: { input: 7, expected: 7 },
      });
    }
  });

  it("writes into the caller's array with out, and checks it", () => {
    const x = Float64Array.from([1, 2, 3, 4, 5, 6, 7]);
    const out = new Float64Array(7).fill(42);
    expect(ema(x, { ...{ period: 3 }, out })).toBe(out);
    expect(Array.from(out)).toEqual(Array.from(ema(x, { period: 3 })));
    expectInputError(() => ema(x, { ...{ period: 3 }, out: new Float64Array(6) }), 'invalid_option');
    expectInputError(() => ema(x, { ...{ period: 3 }, out: x }), 'invalid_option');
    expectInputError(() => ema(x, { ...{ period: 3 }, out: [0] as unknown as Float64Array }), 'invalid_option');
    // a non-finite input still fails with its own error, not a half-written result
    expectInputError(() => ema([1, 2, Number.NaN, 4], { ...{ period: 3 }, out: new Float64Array(4) }), 'non_finite');
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(ema, ['period']);
    expect(() => ema([1, 2, 3], { k: 0 })).toThrow(/k must be/);
  });
});
