import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candleSeries, candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import type { Candle, HLCV } from '../types.js';
import { MFI, mfi } from './mfi.js';

/** Where TA-Lib's `pos + neg < 1` test prints 0 (recomputed directly, with a margin for rounding). */
function talibZeroed(c: HLCV, period: number): (i: number) => boolean {
  const n = c.close.length;
  const pos = new Float64Array(n);
  const neg = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    const tp = (c.high[i] + c.low[i] + c.close[i]) / 3;
    const prev = (c.high[i - 1] + c.low[i - 1] + c.close[i - 1]) / 3;
    if (tp > prev) pos[i] = tp * c.volume[i];
    else if (tp < prev) neg[i] = tp * c.volume[i];
  }
  // TA-Lib zeroes an output whose running pos + neg sum is below 1. Its sums run (drop the flow
  // leaving the window, add the new one), so their residue can put a window whose exact total is
  // just above 1 below it: the mask follows both the exact total and TA-Lib's running one.
  const running = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  // Every flow that passed through TA-Lib's running sums: their residue is up to a few ulps of it.
  const seen = new Float64Array(n);
  let p = 0;
  let m = 0;
  for (let i = 1; i < n; i++) {
    seen[i] = seen[i - 1] + pos[i] + neg[i];
    if (i > period) {
      p -= pos[i - period];
      m -= neg[i - period];
    }
    p += pos[i];
    m += neg[i];
    if (i >= period) running[i] = p + m;
  }
  return (i) => {
    let total = 0;
    for (let j = i - period + 1; j <= i; j++) total += pos[j] + neg[j];
    // ... and a window whose flow is a thousandth or less of what went through the sums reads
    // TA-Lib's residue (ours clears it) beyond the tolerance: 100 * ulps(seen) / total.
    return total < 1 + 1e-9 || running[i] < 1 + 1e-9 || seen[i] > 1e3 * total;
  };
}

/**
 * `absTol`, for short generated series, also accepts differences up to that absolute amount: there
 * the mean |expected| that scales the relative tolerance can be tiny, while the running-sum residue
 * is relative to the 0..100 range.
 */
function compareWithTalib(c: HLCV, period: number, label: string, absTol = 0): void {
  const ref = talib(
    'MFI',
    { high: c.high, low: c.low, close: c.close, volume: c.volume },
    { optInTimePeriod: period },
  ).outReal;
  const out = mfi(c, { period });
  const zeroed = talibZeroed(c, period);
  expectClose(out, ref, { label, skip: (i) => zeroed(i) || Math.abs(out[i] - ref[i]) <= absTol });
}

describe('mfi', () => {
  it('matches a worked example', () => {
    // flows: +11*2 (rise), -10*3 (fall), 0 (unchanged), 0 (unchanged)
    const tp = [10, 11, 10, 10, 10];
    const out = mfi({ high: tp, low: tp, close: tp, volume: [1, 2, 3, 4, 5] }, { period: 2 });
    expect(out[0]).toBeNaN();
    expect(out[1]).toBeNaN();
    expect(out[2]).toBeCloseTo((100 * 22) / 52, 12);
    expect(out[3]).toBe(0);
    expect(out[4]).toBe(50);
    expect(mfi.lookback({ period: 2 })).toBe(2);
    expect(mfi.lookback()).toBe(14);
  });

  it('reads 50 without money flow and clears running-sum residue', () => {
    // The positive sum returns to 2.8e-17, not 0, after adding and dropping these three flows.
    const tp = [1, 1.1, 1.3, 1.7, 1.7, 1.7, 1.7];
    const out = mfi({ high: tp, low: tp, close: tp, volume: [1, 0.1, 0.1, 0.1, 1, 1, 1] }, { period: 3 });
    expect(out[3]).toBe(100);
    expect(out[5]).toBe(100);
    expect(out[6]).toBe(50);
  });

  it('is 100, 0 or 50 by the direction of the last candle at period 1', () => {
    const tp = [2, 3, 1, 1];
    expect(Array.from(mfi({ high: tp, low: tp, close: tp, volume: [1, 1, 1, 1] }, { period: 1 }))).toEqual([
      Number.NaN,
      100,
      0,
      50,
    ]);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib MFI on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const period of [2, 14, 30]) compareWithTalib(candles, period, `${name} MFI(${period})`);
    }
  });

  it('matches TA-Lib MFI on generated candles', () => {
    const r = reach('a TA-Lib MFI value');
    r.assert(
      fc.property(candleSeries(4, 120), (rows) => {
        r.hitIf(rows.length > mfi.lookback({ period: 5 }));
        compareWithTalib(toColumns(rows), 5, 'generated', 1e-9 * 100);
      }),
      { numRuns: 100 },
    );
  });

  it('holds the streaming properties', () => {
    for (const period of [1, 2, 14]) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => mfi(toColumns(rows), { period }),
        stream: () => new MFI({ period }),
        lookback: mfi.lookback({ period }),
        constant: { input: { time: 0, open: 3, high: 3, low: 3, close: 3, volume: 100 }, expected: 50 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => mfi(c as unknown as HLCV, o), ['high', 'low', 'close', 'volume'], ['period']);
    expect(() => new MFI().update({ high: 1, low: 1, close: 1 })).toThrow(/volume/);
  });
});
