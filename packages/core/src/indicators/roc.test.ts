import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, pricesPast } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { ROC, roc } from './roc.js';

describe('roc', () => {
  it('matches a worked example', () => {
    const out = roc([100, 110, 99, 121], { period: 2 });
    expect(out[0]).toBeNaN();
    expect(out[1]).toBeNaN();
    expect(out[2]).toBeCloseTo(-1, 12);
    expect(out[3]).toBeCloseTo(10, 12);
    expect(roc.lookback({ period: 2 })).toBe(2);
    expect(roc.lookback()).toBe(10);
  });

  it('reads 0 when the reference value is 0, as TA-Lib does', () => {
    expect(Array.from(roc([0, 5, 10], { period: 1 }))).toEqual([Number.NaN, 0, 100]);
    const ref = talib('ROC', { inReal: [0, 5, 10] }, { optInTimePeriod: 1 }).outReal;
    expect(Array.from(ref)).toEqual([Number.NaN, 0, 100]);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib ROC on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const period of [1, 2, 10, 50]) {
        const ref = talib('ROC', { inReal: candles.close }, { optInTimePeriod: period }).outReal;
        expectClose(roc(candles.close, { period }), ref, { label: `${name} ROC(${period})` });
      }
    }
  });

  it('holds the streaming properties', () => {
    for (const period of [1, 3, 10]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => roc(xs, { period }),
        stream: () => new ROC({ period }),
        lookback: roc.lookback({ period }),
        constant: { input: 42.5, expected: 0 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(roc, ['period']);
    expect(() => new ROC().update(Number.POSITIVE_INFINITY)).toThrow(/finite/);
  });
});
