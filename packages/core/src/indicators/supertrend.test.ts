import { TradingSignal, SuperTrend as TsSuperTrend } from 'trading-signals';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput, expectInputError } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candle, HLC } from '../types.js';
import { SuperTrend, type SuperTrendOptions, superTrend } from './supertrend.js';

describe('superTrend', () => {
  it('matches a hand-traced pine_supertrend example', () => {
    // period 2, multiplier 1. TR (first bar high - low): 2, 2, 3, 2.5, 2.5; ATR: -, 2, 2.5, 2.5, 2.5.
    // bar 1: bands 10 +- 2 = 12 / 8, first bar: down, line 12.
    // bar 2: basic 14.5 / 9.5; upper stays 12 (14.5 is not lower, close 10 not above 12);
    //        was down (line == upper) and close 12.5 > 12: up, line = lower 9.5.
    // bar 3: basic 13.5 / 8.5; lower stays 9.5; upper resets to 13.5 (previous close 12.5 > 12);
    //        up and close 10.5 >= 9.5: still up, line 9.5.
    // bar 4: basic 11.5 / 6.5; lower stays 9.5; upper 11.5 < 13.5; close 9 < 9.5: down, line 11.5.
    const c = { high: [10, 11, 13, 12, 10], low: [8, 9, 11, 10, 8], close: [9, 10, 12.5, 10.5, 9] };
    const out = superTrend(c, { period: 2, multiplier: 1 });
    expect(Array.from(out.value)).toEqual([Number.NaN, 12, 9.5, 9.5, 11.5]);
    expect(Array.from(out.direction)).toEqual([Number.NaN, -1, 1, 1, -1]);
    expect(superTrend.lookback()).toBe(9);
  });

  it('reads the bands before the first as 0, as Pine does (nz)', () => {
    // period 2, multiplier 3: ATR 1 on bar 1, basic bands 4.5 / -1.5; the lower band is neither
    // above nz(lower[1]) = 0 nor crossed by the previous close, so it reads 0, and keeps reading 0.
    const c = { high: [2, 2, 2], low: [1, 1, 1], close: [1.5, 1.5, 5] };
    const out = superTrend(c, { period: 2, multiplier: 3 });
    expect(Array.from(out.value)).toEqual([Number.NaN, 4.5, 0]);
    expect(Array.from(out.direction)).toEqual([Number.NaN, -1, 1]);
    // With period 1 the first bar has no previous close either (na in Pine), so both bands read 0.
    const one = superTrend(c, { period: 1, multiplier: 3 });
    expect([one.value[0], one.direction[0]]).toEqual([0, -1]);
  });

  it.skipIf(!sharedDataDir)(
    `matches trading-signals SuperTrend on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        const n = candles.close.length;
        for (const [period, multiplier] of [
          [10, 3],
          [7, 2],
          [2, 1],
          [14, 1.5],
        ]) {
          const label = `${name} SuperTrend(${period}, ${multiplier})`;
          const out = superTrend(candles, { period, multiplier });
          const ts = new TsSuperTrend({ interval: period, multiplier });
          const value = new Float64Array(n);
          const direction = new Float64Array(n);
          for (let i = 0; i < n; i++) {
            const r = ts.update({ high: candles.high[i], low: candles.low[i], close: candles.close[i] }, false);
            value[i] = r ? r.supertrend : Number.NaN;
            direction[i] = r ? (r.trend === TradingSignal.BULLISH ? 1 : -1) : Number.NaN;
          }
          expectClose(out.value, value, { label: `${label} value` });
          expectClose(out.direction, direction, { label: `${label} direction`, rel: 0 });
        }
      }
    },
  );

  it('holds the streaming properties', () => {
    const sets: SuperTrendOptions[] = [{ period: 1 }, { period: 2, multiplier: 1 }, {}, { period: 5, multiplier: 0 }];
    for (const options of sets) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => superTrend(toColumns(rows), options),
        stream: () => new SuperTrend(options),
        lookback: superTrend.lookback(options),
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => superTrend(c as unknown as HLC, o), ['high', 'low', 'close'], ['period']);
    expectInputError(() => superTrend({ high: [1], low: [1], close: [1] }, { multiplier: -1 }), 'invalid_option');
  });
});
