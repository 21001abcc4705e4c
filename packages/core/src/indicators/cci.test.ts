import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput, expectInputError } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkCandleOut, sameBits } from '../testing/out.js';
import { candleSeries, candlesPast, checkIndicatorProperties, seriesPast, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
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
    const r = reach('a TA-Lib CCI value');
    r.assert(
      fc.property(candleSeries(3, 120), (rows) => {
        r.hitIf(rows.length > cci.lookback({ period: 5 }));
        compareWithTalib(toColumns(rows), 5, 'generated');
      }),
      { numRuns: 100 },
    );
  });

  it('keeps an exact running mean: agrees with the two-pass form over 10^6 candles to 1e-9', () => {
    // The plain running sum drifts (its rounding errors add up over a long series and `tp - mean`
    // magnifies them); the double-double one must not. Random walks of 10^6 candles at random
    // price levels and volatilities, each compared with a fresh sum per window.
    const n = 1_000_000;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 2, max: 50 }),
        fc.double({ min: -3, max: 6, noNaN: true }),
        fc.double({ min: 1e-4, max: 0.05, noNaN: true }),
        (seed, period, level, vol) => {
          let s = seed;
          const rnd = () => {
            s = (s + 0x6d2b79f5) | 0;
            let t = Math.imul(s ^ (s >>> 15), 1 | s);
            t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
            return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
          };
          const high = new Float64Array(n);
          const low = new Float64Array(n);
          const close = new Float64Array(n);
          let price = 10 ** level;
          for (let i = 0; i < n; i++) {
            const open = price;
            price *= 1 + (rnd() - 0.5) * vol;
            high[i] = Math.max(open, price) * (1 + rnd() * vol * 0.25);
            low[i] = Math.min(open, price) * (1 - rnd() * vol * 0.25);
            close[i] = price;
          }
          const tp = new Float64Array(n);
          for (let i = 0; i < n; i++) tp[i] = (high[i] + low[i] + close[i]) / 3;
          const got = cci({ high, low, close }, { period });
          // 1e-9 relative, plus what rounding the mean by a few ulps can do to a nearly flat
          // window (|d cci / d mean| = period / (0.015 * sum |tp - mean|)): any two correct ways of
          // summing differ there. A drifting running sum breaks this bound by orders of magnitude
          // (its error grows with the length of the series, not with the window).
          const ulps = 4 * period * Number.EPSILON;
          for (let i = period - 1; i < n; i++) {
            let sum = 0;
            for (let j = i - period + 1; j <= i; j++) sum += tp[j];
            const mean = sum / period;
            let dev = 0;
            for (let j = i - period + 1; j <= i; j++) dev += Math.abs(tp[j] - mean);
            const num = tp[i] - mean;
            const want = num === 0 || dev === 0 ? 0 : num / (0.015 * (dev / period));
            const tol = 1e-9 * Math.max(Math.abs(want), 1) + (ulps * Math.abs(mean) * period) / (0.015 * dev);
            if (!(Math.abs(got[i] - want) <= tol)) {
              throw new Error(`CCI(${period}) at ${i} of ${n}: ${got[i]} vs two-pass ${want} (tol ${tol})`);
            }
          }
        },
      ),
      { numRuns: 4 },
    );
  }, 120_000);

  it('equals the stream bit for bit across the typical-price chunks and the four-candle groups', () => {
    // 3 chunks of 4,096 and a remainder; flat stretches (the run of equal prices) cross chunk edges.
    const n = 3 * 4096 + 37;
    const high = new Float64Array(n);
    const low = new Float64Array(n);
    const close = new Float64Array(n);
    let x = 100;
    for (let i = 0; i < n; i++) {
      if (i % 4096 > 4030 || i % 997 < 60) x = Math.round(x);
      else x *= 1 + Math.sin(i * 12.9898) * 0.01;
      high[i] = i % 4096 > 4030 || i % 997 < 60 ? x : x * 1.004;
      low[i] = i % 4096 > 4030 || i % 997 < 60 ? x : x * 0.996;
      close[i] = x;
    }
    for (const period of [2, 3, 4, 5, 7, 20, 50]) {
      const batch = cci({ high, low, close }, { period });
      const stream = new CCI({ period });
      let zeros = 0;
      for (let i = 0; i < n; i++) {
        const v = stream.update({ high: high[i], low: low[i], close: close[i] });
        if (!Object.is(v, batch[i])) throw new Error(`CCI(${period}) at ${i}: batch ${batch[i]}, stream ${v}`);
        if (v === 0) zeros++;
      }
      // The flat stretches were reached: their windows read 0.
      expect(zeros).toBeGreaterThan(50);
    }
  });

  it('holds the streaming properties', () => {
    for (const period of [2, 5, 20]) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => cci(toColumns(rows), { period }),
        stream: () => new CCI({ period }),
        lookback: cci.lookback({ period }),
        constant: { input: { time: 0, open: 0.1, high: 0.1, low: 0.1, close: 0.1, volume: 1 }, expected: 0 },
      });
    }
  });

  it("writes into the caller's array with out, and checks it", () => {
    checkCandleOut((c, out) => cci(c, out === undefined ? { period: 5 } : { period: 5, out: out as Float64Array }));
    // across the kernel's chunks of typical prices
    const n = 10_000;
    const long = { high: new Float64Array(n), low: new Float64Array(n), close: new Float64Array(n) };
    for (let i = 0; i < n; i++) {
      long.close[i] = 100 + 5 * Math.sin(i / 37) + (i % 11) / 8;
      long.high[i] = long.close[i] + 1 + (i % 3) / 4;
      long.low[i] = long.close[i] - 1 - (i % 5) / 4;
    }
    const into = new Float64Array(n).fill(-1);
    expect(sameBits(cci(long, { period: 20, out: into }), cci(long, { period: 20 }))).toBe(-1);
  });

  it('writes into out bit for bit what it returns without, whatever out held', () => {
    const r = reach('a CCI value written into out');
    const draws = fc
      .record({ period: fc.integer({ min: 2, max: 25 }), fill: fc.double() })
      .chain((o) =>
        fc.tuple(fc.constant(o), seriesPast(candleSeries, cci.lookback({ period: o.period }), { minLength: 1 })),
      );
    r.assert(
      fc.property(draws, ([{ period, fill }, rows]) => {
        r.hitIf(rows.length > cci.lookback({ period }));
        const c = toColumns(rows);
        const out = new Float64Array(rows.length).fill(fill);
        expect(cci(c, { period, out })).toBe(out);
        expect(sameBits(out, cci(c, { period }))).toBe(-1);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => cci(c as unknown as HLC, o), ['high', 'low', 'close'], ['period']);
    expectInputError(() => cci({ high: [1], low: [1], close: [1] }, { period: 1 }), 'invalid_option');
  });
});
