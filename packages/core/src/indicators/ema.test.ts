import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, priceSeries } from '../testing/props.js';
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
        inputs: priceSeries(0, 60),
        batch: (xs) => ema(xs, { period }),
        stream: () => new EMA({ period }),
        lookback: ema.lookback({ period }),
        constant: { input: 7, expected: 7 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(ema, ['period']);
    expect(() => ema([1, 2, 3], { k: 0 })).toThrow(/k must be/);
  });
});
