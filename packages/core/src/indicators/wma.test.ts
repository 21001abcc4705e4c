import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, priceSeries, pricesPast } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { WMA, wma } from './wma.js';

describe('wma', () => {
  it('matches a worked example', () => {
    // (1*1 + 2*2 + 3*3) / 6, (2 + 6 + 12) / 6, ...
    expect(Array.from(wma([1, 2, 3, 4, 5], { period: 3 }))).toEqual([Number.NaN, Number.NaN, 14 / 6, 20 / 6, 26 / 6]);
    expect(Array.from(wma([3, 1, 4], { period: 1 }))).toEqual([3, 1, 4]);
    expect(wma.lookback({ period: 3 })).toBe(2);
    expect(wma.lookback()).toBe(19);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib WMA on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const period of [2, 5, 20, 100]) {
        const ref = talib('WMA', { inReal: candles.close }, { optInTimePeriod: period }).outReal;
        expectClose(wma(candles.close, { period }), ref, { label: `${name} WMA(${period})` });
      }
    }
  });

  it('matches TA-Lib WMA on generated series', () => {
    const r = reach('a TA-Lib WMA value');
    r.assert(
      fc.property(priceSeries(25, 200), fc.integer({ min: 2, max: 30 }), (xs, period) => {
        r.hitIf(xs.length > wma.lookback({ period }));
        const ref = talib('WMA', { inReal: xs }, { optInTimePeriod: period }).outReal;
        expectClose(wma(xs, { period }), ref, { label: `WMA(${period})` });
      }),
      { numRuns: 100 },
    );
  });

  it('holds the streaming properties', () => {
    for (const period of [1, 2, 3, 14]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => wma(xs, { period }),
        stream: () => new WMA({ period }),
        lookback: wma.lookback({ period }),
        constant: { input: 42.5, expected: 42.5 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(wma, ['period']);
    expect(() => new WMA().update(Number.NaN)).toThrow(/finite/);
  });
});
