import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, pricesPast } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { Mom, mom } from './mom.js';

describe('mom', () => {
  it('matches a worked example', () => {
    expect(Array.from(mom([1, 4, 2, 8], { period: 2 }))).toEqual([Number.NaN, Number.NaN, 1, 4]);
    expect(mom.lookback({ period: 2 })).toBe(2);
    expect(mom.lookback()).toBe(10);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib MOM on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const period of [1, 2, 10, 50]) {
        const ref = talib('MOM', { inReal: candles.close }, { optInTimePeriod: period }).outReal;
        expectClose(mom(candles.close, { period }), ref, { label: `${name} MOM(${period})`, rel: 0 });
      }
    }
  });

  it('holds the streaming properties', () => {
    for (const period of [1, 3, 10]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => mom(xs, { period }),
        stream: () => new Mom({ period }),
        lookback: mom.lookback({ period }),
        constant: { input: 42.5, expected: 0 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(mom, ['period']);
    expect(() => new Mom().update(Number.NaN)).toThrow(/finite/);
  });
});
