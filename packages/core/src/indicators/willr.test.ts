import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candleSeries, candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { flatWindows, skipOf } from '../testing/window-masks.js';
import type { Candle, HLC } from '../types.js';
import { WillR, willr } from './willr.js';

/** Compares with TA-Lib WILLR, masking flat windows (-50 here, 0 in TA-Lib). */
function compareWithTalib(candles: HLC, period: number, label: string): void {
  const ref = talib(
    'WILLR',
    { high: candles.high, low: candles.low, close: candles.close },
    { optInTimePeriod: period },
  ).outReal;
  expectClose(willr(candles, { period }), ref, {
    label,
    skip: skipOf(flatWindows(candles.high, candles.low, period)),
  });
}

describe('willr', () => {
  it('matches a worked example', () => {
    const candles = { high: [10, 12, 11, 13], low: [8, 9, 9, 10], close: [9, 11, 10, 12] };
    const out = willr(candles, { period: 3 });
    // index 2: HH 12, LL 8, close 10 -> -50; index 3: HH 13, LL 9, close 12 -> -25
    expect(out[0]).toBeNaN();
    expect(out[1]).toBeNaN();
    expect(out[2]).toBeCloseTo(-50, 12);
    expect(out[3]).toBeCloseTo(-25, 12);
    expect(willr.lookback({ period: 3 })).toBe(2);
    expect(willr.lookback()).toBe(13);
  });

  it('reads -50 on a flat window and is the candle itself at period 1', () => {
    expect(willr({ high: [5, 5], low: [5, 5], close: [5, 5] }, { period: 2 })[1]).toBe(-50);
    const one = willr({ high: [4, 10], low: [2, 6], close: [3, 9] }, { period: 1 });
    expect(one[0]).toBeCloseTo(-50, 12);
    expect(one[1]).toBeCloseTo(-25, 12);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib WILLR on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const period of [2, 5, 14, 50]) compareWithTalib(candles, period, `${name} WILLR(${period})`);
    }
  });

  it('matches TA-Lib WILLR on generated candles', () => {
    const r = reach('a TA-Lib WILLR value');
    r.assert(
      fc.property(candleSeries(4, 120), (rows) => {
        r.hitIf(rows.length > willr.lookback({ period: 5 }));
        compareWithTalib(toColumns(rows), 5, 'generated');
      }),
      { numRuns: 100 },
    );
  });

  it('holds the streaming properties', () => {
    for (const period of [1, 2, 14]) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => willr(toColumns(rows), { period }),
        stream: () => new WillR({ period }),
        lookback: willr.lookback({ period }),
        constant: { input: { time: 0, open: 3, high: 3, low: 3, close: 3, volume: 1 }, expected: -50 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => willr(c as unknown as HLC, o), ['high', 'low', 'close'], ['period']);
    expect(() => new WillR().update({ high: 1, low: Number.NaN, close: 1 })).toThrow(/low/);
  });
});
