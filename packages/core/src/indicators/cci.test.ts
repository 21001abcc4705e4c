import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput, expectInputError } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candleSeries, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { flatWindows, skipOf } from '../testing/window-masks.js';
import type { Candle, HLC } from '../types.js';
import { CCI, cci } from './cci.js';

/**
 * Compares with TA-Lib CCI, masking windows of equal typical prices (0 here; TA-Lib prints 0 or
 * +-66.7 depending on whether its rounded mean hits the price exactly).
 */
function compareWithTalib(candles: HLC, period: number, label: string): void {
  const { high, low, close } = candles;
  const ref = talib('CCI', { high, low, close }, { optInTimePeriod: period }).outReal;
  const tp = Float64Array.from({ length: high.length }, (_, i) => (high[i] + low[i] + close[i]) / 3);
  expectClose(cci(candles, { period }), ref, { label, skip: skipOf(flatWindows(tp, tp, period)) });
}

describe('cci', () => {
  it('matches a worked example', () => {
    // typical prices 1, 2, 3, 2: [1,2,3] mean 2, mean deviation 2/3 -> 1 / (0.015 * 2/3) = 100;
    // [2,3,2] mean 7/3, mean deviation 4/9 -> (-1/3) / (0.015 * 4/9) = -50
    const tp = [1, 2, 3, 2];
    const out = cci({ high: tp, low: tp, close: tp }, { period: 3 });
    expect(out[0]).toBeNaN();
    expect(out[1]).toBeNaN();
    expect(out[2]).toBeCloseTo(100, 10);
    expect(out[3]).toBeCloseTo(-50, 10);
    expect(cci.lookback({ period: 3 })).toBe(2);
    expect(cci.lookback()).toBe(19);
  });

  it('reads 0 on a flat window, even where the rounded mean misses the price', () => {
    const x = [0.1, 0.1, 0.1, 0.1];
    expect(Array.from(cci({ high: x, low: x, close: x }, { period: 3 }).slice(2))).toEqual([0, 0]);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib CCI on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const period of [2, 14, 20, 50]) compareWithTalib(candles, period, `${name} CCI(${period})`);
    }
  });

  it('matches TA-Lib CCI on generated candles', () => {
    fc.assert(
      fc.property(candleSeries(1, 80), (rows) => compareWithTalib(toColumns(rows), 5, 'generated')),
      { numRuns: 100 },
    );
  });

  it('holds the streaming properties', () => {
    for (const period of [2, 5, 20]) {
      checkIndicatorProperties<Candle>({
        inputs: candleSeries(0, 60),
        batch: (rows) => cci(toColumns(rows), { period }),
        stream: () => new CCI({ period }),
        lookback: cci.lookback({ period }),
        constant: { input: { time: 0, open: 0.1, high: 0.1, low: 0.1, close: 0.1, volume: 1 }, expected: 0 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => cci(c as unknown as HLC, o), ['high', 'low', 'close'], ['period']);
    expectInputError(() => cci({ high: [1], low: [1], close: [1] }, { period: 1 }), 'invalid_option');
  });
});
