import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, priceSeries, pricesPast } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { TEMA, tema } from './tema.js';

describe('tema', () => {
  it('matches a worked example', () => {
    // period 2, k = 2/3: e1 = [NaN, 2, 10/3, 40/9, 58/9], e2 = [.., 8/3, 104/27, ..], e3 seeded at 4.
    const xs = [1, 3, 4, 5, 7];
    const out = tema(xs, { period: 2 });
    expect(Array.from(out.subarray(0, 3)).every(Number.isNaN)).toBe(true);
    const e1 = [Number.NaN, 2, 10 / 3, 40 / 9, 40 / 9 + (7 - 40 / 9) * (2 / 3)];
    const e2 = [Number.NaN, Number.NaN, 8 / 3, 8 / 3 + (40 / 9 - 8 / 3) * (2 / 3)];
    e2.push(e2[3] + (e1[4] - e2[3]) * (2 / 3));
    const e3 = (e2[2] + e2[3]) / 2;
    expect(out[3]).toBeCloseTo(e3 + 3 * e1[3] - 3 * e2[3], 13);
    expect(out[4]).toBeCloseTo(e3 + (e2[4] - e3) * (2 / 3) + 3 * e1[4] - 3 * e2[4], 13);
    expect(tema.lookback({ period: 2 })).toBe(3);
    expect(tema.lookback()).toBe(57);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib TEMA on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const period of [2, 9, 20, 50]) {
        const ref = talib('TEMA', { inReal: candles.close }, { optInTimePeriod: period }).outReal;
        expectClose(tema(candles.close, { period }), ref, { label: `${name} TEMA(${period})` });
      }
    }
  });

  it('matches TA-Lib TEMA on generated series', () => {
    const r = reach('a TA-Lib TEMA value');
    r.assert(
      fc.property(priceSeries(50, 220), fc.integer({ min: 2, max: 20 }), (xs, period) => {
        r.hitIf(xs.length > tema.lookback({ period }));
        const ref = talib('TEMA', { inReal: xs }, { optInTimePeriod: period }).outReal;
        expectClose(tema(xs, { period }), ref, { label: `TEMA(${period})` });
      }),
      { numRuns: 100 },
    );
  });

  it('holds the streaming properties', () => {
    for (const period of [1, 2, 3, 10]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => tema(xs, { period }),
        stream: () => new TEMA({ period }),
        lookback: tema.lookback({ period }),
        constant: { input: 42.5, expected: 42.5 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(tema, ['period']);
    expect(() => new TEMA().update(Number.NaN)).toThrow(/finite/);
  });
});
