import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candleSeries, candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { flatWindows, spread } from '../testing/window-masks.js';
import type { Candle, HLC } from '../types.js';
import { Stoch, type StochOptions, stoch } from './stoch.js';

const optionSets: StochOptions[] = [
  { kPeriod: 14, kSmooth: 3, dPeriod: 3 },
  { kPeriod: 5, kSmooth: 3, dPeriod: 3 },
  { kPeriod: 1, kSmooth: 1, dPeriod: 1 },
  { kPeriod: 2, kSmooth: 1, dPeriod: 4 },
  { kPeriod: 21, kSmooth: 5, dPeriod: 2 },
];

/**
 * Compares with TA-Lib STOCH (SMA smoothing), masking what flat windows reach (TA-Lib's raw %K is
 * 0 there). `absTol`, for short generated series, also accepts differences up to that absolute
 * amount: there the mean |expected| that scales the relative tolerance can be tiny (all %K near
 * 0), while the SMAs' running-sum residue is relative to the 0..100 range.
 */
function compareWithTalib(candles: HLC, o: Required<StochOptions>, label: string, absTol = 0): void {
  const ref = talib(
    'STOCH',
    { high: candles.high, low: candles.low, close: candles.close },
    {
      optInFastK_Period: o.kPeriod,
      optInSlowK_Period: o.kSmooth,
      optInSlowK_MAType: 0,
      optInSlowD_Period: o.dPeriod,
      optInSlowD_MAType: 0,
    },
  );
  const out = stoch(candles, o);
  const kMask = spread(flatWindows(candles.high, candles.low, o.kPeriod), o.kSmooth);
  const dMask = spread(kMask, o.dPeriod);
  expectClose(out.k, ref.outSlowK, {
    label: `${label} k`,
    skip: (i) => kMask[i] === 1 || Math.abs(out.k[i] - ref.outSlowK[i]) <= absTol,
  });
  expectClose(out.d, ref.outSlowD, {
    label: `${label} d`,
    skip: (i) => dMask[i] === 1 || Math.abs(out.d[i] - ref.outSlowD[i]) <= absTol,
  });
}

describe('stoch', () => {
  it('matches a worked example', () => {
    const candles = { high: [10, 12, 11, 13, 12], low: [8, 9, 9, 10, 10], close: [9, 11, 10, 12, 11] };
    const { k, d } = stoch(candles, { kPeriod: 3, kSmooth: 2, dPeriod: 2 });
    // raw %K: 50 (index 2), 75, 50; %K = SMA2: 62.5, 62.5; %D = SMA2 of %K: 62.5 (index 4)
    expect(Array.from(k.slice(0, 4))).toEqual([Number.NaN, Number.NaN, Number.NaN, Number.NaN]);
    expect(Array.from(d.slice(0, 4))).toEqual([Number.NaN, Number.NaN, Number.NaN, Number.NaN]);
    expect(k[4]).toBeCloseTo(62.5, 12);
    expect(d[4]).toBeCloseTo(62.5, 12);
    expect(stoch.lookback({ kPeriod: 3, kSmooth: 2, dPeriod: 2 })).toBe(4);
    expect(stoch.lookback()).toBe(13 + 2 + 2);
  });

  it('reads 50 on a flat window', () => {
    const flat = { high: [5, 5, 5], low: [5, 5, 5], close: [5, 5, 5] };
    expect(stoch(flat, { kPeriod: 2, kSmooth: 1, dPeriod: 1 }).k[2]).toBe(50);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib STOCH on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const o of optionSets) {
        compareWithTalib(candles, o as Required<StochOptions>, `${name} STOCH(${o.kPeriod},${o.kSmooth},${o.dPeriod})`);
      }
    }
  });

  it('matches TA-Lib STOCH on generated candles', () => {
    const r = reach('a TA-Lib STOCH value');
    r.assert(
      fc.property(candleSeries(6, 120), (rows) => {
        r.hitIf(rows.length > stoch.lookback({ kPeriod: 5, kSmooth: 3, dPeriod: 3 }));
        compareWithTalib(toColumns(rows), { kPeriod: 5, kSmooth: 3, dPeriod: 3 }, 'generated', 1e-9 * 100);
      }),
      { numRuns: 100 },
    );
  });

  it('holds the streaming properties', () => {
    for (const o of [optionSets[0], optionSets[2], optionSets[3]]) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => stoch(toColumns(rows), o),
        stream: () => new Stoch(o),
        lookback: stoch.lookback(o),
        constant: { input: { time: 0, open: 3, high: 3, low: 3, close: 3, volume: 1 }, expected: { k: 50, d: 50 } },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput(
      (c, o) => stoch(c as unknown as HLC, o),
      ['high', 'low', 'close'],
      ['kPeriod', 'kSmooth', 'dPeriod'],
    );
    expect(() => new Stoch().update({ high: 1, low: 1 })).toThrow(/close/);
    expect(() => new Stoch().replace({ high: 1, low: 1, close: 1 })).toThrow(/replace/);
  });
});
