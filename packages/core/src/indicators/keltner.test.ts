import { KeltnerChannels } from 'technicalindicators';
import { describe, expect, it } from 'vitest';
import { checkCandleBadInput, expectInputError } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import type { Candle, HLC } from '../types.js';
import { Keltner, type KeltnerOptions, keltner } from './keltner.js';

/** technicalindicators' KeltnerChannels, aligned to the end of the input. */
function reference(c: HLC, period: number, atrPeriod: number, multiplier: number) {
  const n = c.close.length;
  const rows = KeltnerChannels.calculate({
    maPeriod: period,
    atrPeriod,
    useSMA: false,
    multiplier,
    high: Array.from(c.high),
    low: Array.from(c.low),
    close: Array.from(c.close),
  });
  const col = (k: 'upper' | 'middle' | 'lower') => {
    const out = new Float64Array(n).fill(Number.NaN);
    rows.forEach((r, i) => {
      out[n - rows.length + i] = r[k];
    });
    return out;
  };
  return { upper: col('upper'), middle: col('middle'), lower: col('lower') };
}

describe('keltner', () => {
  it('matches a worked example', () => {
    const c = { high: [10, 11, 12, 11], low: [9, 10, 10, 9], close: [9.5, 10.5, 11, 10] };
    // EMA(3): mean(9.5, 10.5, 11) = 31 / 3 at bar 2, then (10 - 31/3) * 0.5 + 31/3; ATR(2): 1.75, 1.875
    const out = keltner(c, { period: 3, atrPeriod: 2, multiplier: 2 });
    const m3 = (10 - 31 / 3) * 0.5 + 31 / 3;
    expect(out.middle[2]).toBe(31 / 3);
    expect(out.upper[2]).toBe(31 / 3 + 3.5);
    expect(out.lower[3]).toBe(m3 - 3.75);
    expect(out.middle[1]).toBeNaN();
    expect(keltner.lookback()).toBe(19);
    expect(keltner.lookback({ period: 5, atrPeriod: 10 })).toBe(10);
  });

  it.skipIf(!sharedDataDir)(
    `matches technicalindicators KeltnerChannels and TA-Lib EMA and ATR (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        for (const [period, atrPeriod, multiplier] of [
          [20, 10, 2],
          [5, 14, 1.5],
          [2, 2, 3],
        ]) {
          const label = `${name} KC(${period}, ${atrPeriod}, ${multiplier})`;
          const out = keltner(candles, { period, atrPeriod, multiplier });
          const ref = reference(candles, period, atrPeriod, multiplier);
          for (const k of ['upper', 'middle', 'lower'] as const) {
            expectClose(out[k], ref[k], { label: `${label} ${k}` });
          }
          // and, independently, TA-Lib's EMA and ATR
          const lb = keltner.lookback({ period, atrPeriod });
          const mid = talib('EMA', { inReal: candles.close }, { optInTimePeriod: period }).outReal;
          const atr = talib('ATR', candles, { optInTimePeriod: atrPeriod }).outReal;
          mid.fill(Number.NaN, 0, lb);
          expectClose(out.middle, mid, { label: `${label} TA-Lib EMA` });
          expectClose(
            out.upper,
            mid.map((m, i) => m + multiplier * atr[i]),
            { label: `${label} TA-Lib upper` },
          );
        }
      }
    },
  );

  it('holds the streaming properties', () => {
    const sets: KeltnerOptions[] = [
      { period: 1, atrPeriod: 1 },
      { period: 5, atrPeriod: 2 },
      { period: 3, atrPeriod: 8, multiplier: 1 },
      {},
    ];
    for (const options of sets) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => keltner(toColumns(rows), options),
        stream: () => new Keltner(options),
        lookback: keltner.lookback(options),
        constant: {
          input: { time: 0, open: 5, high: 6, low: 4, close: 5, volume: 1 },
          expected: { middle: 5, upper: 5 + 2 * (options.multiplier ?? 2), lower: 5 - 2 * (options.multiplier ?? 2) },
        },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => keltner(c as unknown as HLC, o), ['high', 'low', 'close'], ['period', 'atrPeriod']);
    expectInputError(() => keltner({ high: [1], low: [1], close: [1] }, { multiplier: -1 }), 'invalid_option');
  });
});
