import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, priceSeries, pricesPast } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { DEMA, dema } from './dema.js';

describe('dema', () => {
  it('matches a worked example', () => {
    // period 2, k = 2/3: e1 = [NaN, 2, 10/3, 40/9], e2 seeded by mean(2, 10/3) = 8/3 at index 2.
    const out = dema([1, 3, 4, 5], { period: 2 });
    expect(out[1]).toBeNaN();
    expect(out[2]).toBeCloseTo(2 * (10 / 3) - 8 / 3, 14);
    expect(out[3]).toBeCloseTo(2 * (40 / 9) - ((40 / 9 - 8 / 3) * (2 / 3) + 8 / 3), 14);
    expect(dema.lookback({ period: 2 })).toBe(2);
    expect(dema.lookback()).toBe(38);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib DEMA on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const period of [2, 9, 20, 50]) {
        const ref = talib('DEMA', { inReal: candles.close }, { optInTimePeriod: period }).outReal;
        expectClose(dema(candles.close, { period }), ref, { label: `${name} DEMA(${period})` });
      }
    }
  });

  it('matches TA-Lib DEMA on generated series', () => {
    const r = reach('a TA-Lib DEMA value');
    r.assert(
      fc.property(priceSeries(30, 200), fc.integer({ min: 2, max: 20 }), (xs, period) => {
        r.hitIf(xs.length > dema.lookback({ period }));
        const ref = talib('DEMA', { inReal: xs }, { optInTimePeriod: period }).outReal;
        expectClose(dema(xs, { period }), ref, { label: `DEMA(${period})` });
      }),
      { numRuns: 100 },
    );
  });

  it('holds the streaming properties', () => {
    for (const period of [1, 2, 3, 10]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => dema(xs, { period }),
        stream: () => new DEMA({ period }),
        lookback: dema.lookback({ period }),
        constant: { input: 42.5, expected: 42.5 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(dema, ['period']);
    expect(() => new DEMA().update(Number.NaN)).toThrow(/finite/);
  });
});
