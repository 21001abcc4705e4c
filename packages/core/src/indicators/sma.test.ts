import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, priceSeries } from '../testing/props.js';
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
        inputs: priceSeries(0, 60),
        batch: (xs) => sma(xs, { period }),
        stream: () => new SMA({ period }),
        lookback: sma.lookback({ period }),
        constant: { input: 42.5, expected: 42.5 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(sma, ['period']);
    expect(() => new SMA().update(Number.NaN)).toThrow(/finite/);
  });
});
