import ixjb from '@ixjb94/indicators';
import fc from 'fast-check';
import ti from 'technicalindicators';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput, expectInputError } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candleSeries, candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candle, HL } from '../types.js';
import { AO, ao } from './ao.js';

/** technicalindicators' AwesomeOscillator (unrounded), realigned to the input. */
function technicalIndicatorsAo(c: HL, fast: number, slow: number): Float64Array {
  const res = ti.AwesomeOscillator.calculate({
    high: Array.from(c.high),
    low: Array.from(c.low),
    fastPeriod: fast,
    slowPeriod: slow,
    format: (v: number) => v,
  });
  const out = new Float64Array(c.high.length).fill(Number.NaN);
  out.set(res, c.high.length - res.length);
  return out;
}

/** @ixjb94/indicators' ao (5 / 34 only), realigned to the input. */
function ixjbAo(c: HL): Float64Array {
  const res = new ixjb.IndicatorsSync().ao(Array.from(c.high), Array.from(c.low));
  const out = new Float64Array(c.high.length).fill(Number.NaN);
  out.set(res, c.high.length - res.length);
  return out;
}

describe('ao', () => {
  it('matches a worked example', () => {
    // median prices 1, 2, 3, 4: SMA2 - SMA3 = 2.5 - 2 at index 2, 3.5 - 3 at index 3
    const out = ao({ high: [1.5, 2.5, 3.5, 4.5], low: [0.5, 1.5, 2.5, 3.5] }, { fast: 2, slow: 3 });
    expect(Array.from(out)).toEqual([Number.NaN, Number.NaN, 0.5, 0.5]);
    expect(ao.lookback({ fast: 2, slow: 3 })).toBe(2);
    expect(ao.lookback()).toBe(33);
  });

  it.skipIf(!sharedDataDir)(
    `matches technicalindicators and @ixjb94/indicators on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        if (candles.high.length < 34) continue;
        expectClose(ao(candles), ixjbAo(candles), { label: `${name} ixjb ao(5,34)` });
        for (const [fast, slow] of [
          [5, 34],
          [1, 2],
          [3, 10],
          [10, 50],
        ]) {
          expectClose(ao(candles, { fast, slow }), technicalIndicatorsAo(candles, fast, slow), {
            label: `${name} technicalindicators AO(${fast},${slow})`,
          });
        }
      }
    },
  );

  it('matches technicalindicators on generated candles', () => {
    const r = reach('a reference AO value');
    r.assert(
      fc.property(candleSeries(6, 80), (rows) => {
        r.hitIf(rows.length > ao.lookback({ fast: 2, slow: 6 }));
        const c = toColumns(rows);
        const ref = technicalIndicatorsAo(c, 2, 6);
        const out = ao(c, { fast: 2, slow: 6 });
        // Near flat stretches AO is tiny and the two libraries' running sums round differently by
        // ulps of the price, so differences up to 1e-12 of the highest price are accepted as well.
        const absTol = 1e-12 * Math.max(...rows.map((r) => r.high));
        expectClose(out, ref, { label: 'generated', skip: (i) => Math.abs(out[i] - ref[i]) <= absTol });
      }),
      { numRuns: 100 },
    );
  });

  it('holds the streaming properties', () => {
    for (const [fast, slow] of [
      [5, 34],
      [1, 2],
      [3, 7],
    ]) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => ao(toColumns(rows), { fast, slow }),
        stream: () => new AO({ fast, slow }),
        lookback: ao.lookback({ fast, slow }),
        constant: { input: { time: 0, open: 3, high: 4, low: 2, close: 3, volume: 1 }, expected: 0 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => ao(c as unknown as HL, o), ['high', 'low'], ['fast', 'slow']);
    expectInputError(() => ao({ high: [1], low: [1] }, { fast: 5, slow: 5 }), 'invalid_option');
    expect(() => new AO().update({ high: 1 })).toThrow(/low/);
  });
});
