import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candleSeries, candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import type { Candle, HLC } from '../types.js';
import { UltOsc, type UltOscOptions, ultOsc } from './ultosc.js';

/**
 * Where TA-Lib drops a term by its `|sum(tr)| < 1e-8` test (our term is 0.5 on a window without
 * range, or the genuine ratio on sub-1e-8 ranges): any of the three windows' true-range sums,
 * recomputed directly, below the threshold (with a margin for rounding).
 */
function talibDropped(c: HLC, periods: number[]): (i: number) => boolean {
  const n = c.close.length;
  const tr = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    const pc = c.close[i - 1];
    tr[i] = Math.max(c.high[i] - c.low[i], Math.abs(pc - c.high[i]), Math.abs(pc - c.low[i]));
  }
  return (i) =>
    periods.some((p) => {
      let sum = 0;
      for (let j = i - p + 1; j <= i; j++) sum += tr[j];
      return sum < 1e-8 * (1 + 1e-6);
    });
}

/**
 * `absTol`, for short generated series, also accepts differences up to that absolute amount: there
 * the mean |expected| that scales the relative tolerance can be tiny, while the running-sum residue
 * is relative to the 0..100 range.
 */
function compareWithTalib(c: HLC, o: Required<UltOscOptions>, label: string, absTol = 0): void {
  const ref = talib(
    'ULTOSC',
    { high: c.high, low: c.low, close: c.close },
    { optInTimePeriod1: o.period1, optInTimePeriod2: o.period2, optInTimePeriod3: o.period3 },
  ).outReal;
  const out = ultOsc(c, o);
  const dropped = talibDropped(c, [o.period1, o.period2, o.period3]);
  expectClose(out, ref, { label, skip: (i) => dropped(i) || Math.abs(out[i] - ref[i]) <= absTol });
}

describe('ultOsc', () => {
  it('matches a worked example', () => {
    // candle 1 after a close of 10: buying pressure 11 - min(9, 10) = 2, true range 3 -> 2/3;
    // candle 2: 10 - min(10, 11) = 0 over max(2, 1, 1) = 2 -> 0
    const c = { high: [10, 12, 12], low: [10, 9, 10], close: [10, 11, 10] };
    const out = ultOsc(c, { period1: 1, period2: 1, period3: 1 });
    expect(out[0]).toBeNaN();
    expect(out[1]).toBeCloseTo((100 * 2) / 3, 12);
    expect(out[2]).toBe(0);
    // windows 1 and 2 at candle 2: 4 * 0 + 2 * (2 / 5) + ... with period3 = 2 too
    expect(ultOsc(c, { period1: 1, period2: 2, period3: 2 })[2]).toBeCloseTo((100 * (0 + 2 * 0.4 + 0.4)) / 7, 12);
    expect(ultOsc.lookback({ period1: 1, period2: 2, period3: 2 })).toBe(2);
    expect(ultOsc.lookback()).toBe(28);
  });

  it('weighs the sorted periods like TA-Lib, whatever their order', () => {
    const c = { high: [3, 5, 4, 6, 5, 7], low: [1, 2, 2, 3, 3, 4], close: [2, 4, 3, 5, 4, 6] };
    expect(ultOsc(c, { period1: 4, period2: 1, period3: 2 })).toEqual(
      ultOsc(c, { period1: 1, period2: 2, period3: 4 }),
    );
  });

  it('reads 50 on a flat market', () => {
    const x = [5, 5, 5, 5, 5];
    expect(ultOsc({ high: x, low: x, close: x }, { period1: 1, period2: 2, period3: 3 })[4]).toBe(50);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib ULTOSC on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const [period1, period2, period3] of [
        [7, 14, 28],
        [2, 3, 4],
        [28, 14, 7],
        [1, 2, 3],
        [5, 10, 5],
      ]) {
        // Not (1, 1, 1): TA-Lib's lookback is then 0 (SMA's lookback of 1 is its -1 error code)
        // and it reads the close before the first candle; the worked example covers period 1.
        compareWithTalib(candles, { period1, period2, period3 }, `${name} ULTOSC(${period1},${period2},${period3})`);
      }
    }
  });

  it('matches TA-Lib ULTOSC on generated candles', () => {
    const r = reach('a TA-Lib ULTOSC value');
    r.assert(
      fc.property(candleSeries(4, 120), (rows) => {
        r.hitIf(rows.length > ultOsc.lookback({ period1: 2, period2: 3, period3: 5 }));
        compareWithTalib(toColumns(rows), { period1: 2, period2: 3, period3: 5 }, 'generated', 1e-9 * 100);
      }),
      { numRuns: 100 },
    );
  });

  it('holds the streaming properties', () => {
    for (const o of [{}, { period1: 1, period2: 1, period3: 1 }, { period1: 4, period2: 2, period3: 3 }]) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => ultOsc(toColumns(rows), o),
        stream: () => new UltOsc(o),
        lookback: ultOsc.lookback(o),
        constant: { input: { time: 0, open: 3, high: 3, low: 3, close: 3, volume: 1 }, expected: 50 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput(
      (c, o) => ultOsc(c as unknown as HLC, o),
      ['high', 'low', 'close'],
      ['period1', 'period2', 'period3'],
    );
    expect(() => new UltOsc().update({ high: 1, low: 1 })).toThrow(/close/);
  });
});
