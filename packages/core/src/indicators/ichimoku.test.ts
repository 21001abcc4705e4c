import { IchimokuCloud as RefIchimoku } from 'technicalindicators';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import type { Candle, HLC } from '../types.js';
import { Ichimoku, type IchimokuOptions, ichimoku } from './ichimoku.js';

const OPTIONS: IchimokuOptions[] = [
  {},
  { conversion: 2, base: 3, spanB: 5, displacement: 1 },
  { conversion: 20, base: 60, spanB: 120, displacement: 30 },
  { conversion: 30, base: 10, spanB: 5, displacement: 4 },
];

/** NaN before `from`: the reference as ichimoku publishes it (one lookback for every column). */
function from(col: Float64Array, start: number): Float64Array {
  const out = Float64Array.from(col);
  out.fill(Number.NaN, 0, Math.min(start, out.length));
  return out;
}

describe('ichimoku', () => {
  it('matches a hand-computed example', () => {
    const candles = {
      high: [10, 12, 11, 13, 9, 14, 15, 11],
      low: [8, 9, 7, 10, 5, 12, 13, 6],
      close: [9, 11, 10, 12, 8, 13, 14, 7],
    };
    const options = { conversion: 2, base: 3, spanB: 5, displacement: 3 };
    // conversion (2 bars) from bar 1: 10, 9.5, 10, 9, 9.5, 13.5, 10.5
    // base (3 bars) from bar 2: 9.5, 10, 9, 9.5, 10, 10.5; spanA from bar 2: 9.5, 10, 9, 9.5, 11.75, 10.5
    // spanB (5 bars) from bar 4: 9, 9.5, 10, 10
    // Lookback 5 - 1 + 3 - 1 = 6; the cloud shown at bar i was computed at bar i - 2.
    expect(ichimoku.lookback(options)).toBe(6);
    const out = ichimoku(candles, options);
    const row = (i: number) => Object.fromEntries(Object.entries(out).map(([k, col]) => [k, col[i]]));
    const N = Number.NaN;
    for (let i = 0; i < 6; i++) {
      expect(row(i)).toEqual({
        conversion: N,
        base: N,
        spanA: N,
        spanB: N,
        spanAPlotted: N,
        spanBPlotted: N,
        lagging: N,
      });
    }
    expect(row(6)).toEqual({
      conversion: 13.5,
      base: 10,
      spanA: 11.75,
      spanB: 10,
      spanAPlotted: 9,
      spanBPlotted: 9,
      lagging: 14,
    });
    expect(row(7)).toEqual({
      conversion: 10.5,
      base: 10.5,
      spanA: 10.5,
      spanB: 10,
      spanAPlotted: 9.5,
      spanBPlotted: 9.5,
      lagging: 7,
    });
    expect(ichimoku.lookback()).toBe(76);
    expect(ichimoku.lookback({ displacement: 1 })).toBe(51);
  });

  it.skipIf(!sharedDataDir)(
    `matches TA-Lib MIDPRICE for conversion, base and span B (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        const { high, low, close } = candles;
        for (const options of OPTIONS) {
          const out = ichimoku(candles, options);
          const lb = ichimoku.lookback(options);
          const mid = (p: number) => from(talib('MIDPRICE', { high, low }, { optInTimePeriod: p }).outReal, lb);
          const c = mid(options.conversion ?? 9);
          const b = mid(options.base ?? 26);
          const s = mid(options.spanB ?? 52);
          const label = `${name} ichimoku(${JSON.stringify(options)})`;
          expectClose(out.conversion, c, { label: `${label} conversion` });
          expectClose(out.base, b, { label: `${label} base` });
          expectClose(out.spanB, s, { label: `${label} spanB` });
          expectClose(
            out.spanA,
            c.map((x, i) => (x + b[i]) / 2),
            { label: `${label} spanA` },
          );
          expectClose(out.lagging, from(close, lb), { label: `${label} lagging` });
          // The plotted spans are the computed ones, displacement - 1 bars later.
          const shift = (options.displacement ?? 26) - 1;
          const full = ichimoku(candles, { ...options, displacement: 1 });
          const shifted = (col: Float64Array) =>
            from(
              col.map((_, i) => (i >= shift ? col[i - shift] : Number.NaN)),
              lb,
            );
          expectClose(out.spanAPlotted, shifted(full.spanA), { label: `${label} spanAPlotted` });
          expectClose(out.spanBPlotted, shifted(full.spanB), { label: `${label} spanBPlotted` });
        }
      }
    },
  );

  it.skipIf(!sharedDataDir)(
    `matches technicalindicators IchimokuCloud on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        const n = candles.close.length;
        const ref = RefIchimoku.calculate({
          high: Array.from(candles.high),
          low: Array.from(candles.low),
          conversionPeriod: 9,
          basePeriod: 26,
          spanPeriod: 52,
          displacement: 26,
        });
        // technicalindicators starts at bar max(9, 26, 52, 26) - 1 and never shifts its spans.
        const lb = ichimoku.lookback();
        const col = (k: 'conversion' | 'base' | 'spanA' | 'spanB') => {
          const out = new Float64Array(n).fill(Number.NaN);
          ref.forEach((r, j) => {
            out[n - ref.length + j] = r[k];
          });
          return from(out, lb);
        };
        const out = ichimoku(candles);
        for (const k of ['conversion', 'base', 'spanA', 'spanB'] as const) {
          expectClose(out[k], col(k), { label: `${name} ichimoku ${k}` });
        }
      }
    },
  );

  it('holds the streaming properties', () => {
    for (const options of [
      OPTIONS[0],
      OPTIONS[1],
      { conversion: 3, base: 5, spanB: 7, displacement: 4 },
      { conversion: 1, base: 1, spanB: 1, displacement: 1 },
    ]) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => ichimoku(toColumns(rows), options),
        stream: () => new Ichimoku(options),
        lookback: ichimoku.lookback(options),
        constant: {
          input: { time: 0, open: 5, high: 6, low: 4, close: 5.5, volume: 1 },
          expected: { conversion: 5, base: 5, spanA: 5, spanB: 5, spanAPlotted: 5, spanBPlotted: 5, lagging: 5.5 },
        },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput(
      (c, o) => ichimoku(c as unknown as HLC, o),
      ['high', 'low', 'close'],
      ['conversion', 'base', 'spanB', 'displacement'],
    );
    expect(() => new Ichimoku({ displacement: 0 })).toThrow(/displacement/);
  });
});
