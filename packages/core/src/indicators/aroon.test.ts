import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candleSeries, candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import type { Candle, HL } from '../types.js';
import { Aroon, aroon } from './aroon.js';

/** Same operations as TA-Lib on the same integers: the comparison is exact (rel 0). */
function compareWithTalib(c: HL, period: number, label: string): void {
  const inputs = { high: c.high, low: c.low };
  const ref = talib('AROON', inputs, { optInTimePeriod: period });
  const osc = talib('AROONOSC', inputs, { optInTimePeriod: period }).outReal;
  const out = aroon(c, { period });
  expectClose(out.up, ref.outAroonUp, { label: `${label} up`, rel: 0 });
  expectClose(out.down, ref.outAroonDown, { label: `${label} down`, rel: 0 });
  expectClose(out.oscillator, osc, { label: `${label} oscillator`, rel: 0 });
}

describe('aroon', () => {
  it('matches a worked example', () => {
    const out = aroon({ high: [1, 3, 2, 2], low: [1, 0, 1, 1] }, { period: 2 });
    // index 2: high and low both 1 candle ago -> 50, 50; index 3: both 2 candles ago -> 0, 0
    expect(Array.from(out.up)).toEqual([Number.NaN, Number.NaN, 50, 0]);
    expect(Array.from(out.down)).toEqual([Number.NaN, Number.NaN, 50, 0]);
    expect(Array.from(out.oscillator)).toEqual([Number.NaN, Number.NaN, 0, 0]);
    expect(aroon.lookback({ period: 2 })).toBe(2);
    expect(aroon.lookback()).toBe(14);
  });

  it('counts the most recent of equal extremes, as TA-Lib does', () => {
    const out = aroon({ high: [1, 2, 2], low: [3, 3, 3] }, { period: 2 });
    expect(out.up[2]).toBe(100);
    expect(out.down[2]).toBe(100);
  });

  it('reads 100 or 0 at period 1', () => {
    const out = aroon({ high: [1, 2, 1], low: [1, 0, 1] }, { period: 1 });
    expect(Array.from(out.up)).toEqual([Number.NaN, 100, 0]);
    expect(Array.from(out.down)).toEqual([Number.NaN, 100, 0]);
  });

  it.skipIf(!sharedDataDir)(
    `matches TA-Lib AROON and AROONOSC on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        for (const period of [2, 14, 25, 50]) compareWithTalib(candles, period, `${name} AROON(${period})`);
      }
    },
  );

  it('matches TA-Lib on generated candles, ties included', () => {
    const r = reach('a TA-Lib AROON value');
    r.assert(
      fc.property(candleSeries(3, 120), (rows) => {
        r.hitIf(rows.length > aroon.lookback({ period: 4 }));
        compareWithTalib(toColumns(rows), 4, 'generated');
      }),
      { numRuns: 100 },
    );
  });

  it('holds the streaming properties', () => {
    for (const period of [1, 2, 14]) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => aroon(toColumns(rows), { period }),
        stream: () => new Aroon({ period }),
        lookback: aroon.lookback({ period }),
        constant: {
          input: { time: 0, open: 3, high: 3, low: 3, close: 3, volume: 1 },
          expected: { up: 100, down: 100, oscillator: 0 },
        },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => aroon(c as unknown as HL, o), ['high', 'low'], ['period']);
    expect(() => new Aroon().update({ high: 1 })).toThrow(/low/);
  });
});
