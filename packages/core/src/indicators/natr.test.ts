import { describe, expect, it } from 'vitest';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import type { Candle, HLC } from '../types.js';
import { NATR, type NatrOptions, natr } from './natr.js';

describe('natr', () => {
  it('is the ATR in percent of the close', () => {
    // tr[1..3] = 1.5, 2, 2; ATR(2) = 1.75, 1.875
    const out = natr({ high: [10, 11, 12, 11], low: [9, 10, 10, 9], close: [9.5, 10.5, 11, 10] }, { period: 2 });
    expect(Array.from(out)).toEqual([Number.NaN, Number.NaN, (1.75 / 11) * 100, (1.875 / 10) * 100]);
    expect(natr({ high: [1, 1, 1], low: [0, 0, 0], close: [1, 1, 0] }, { period: 1 })[2]).toBe(0);
    expect(natr.lookback({ period: 14 })).toBe(14);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib NATR on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      // TA-Lib's NATR(1) returns the raw TRANGE, not normalized: period 1 is checked against TRANGE.
      const tr = talib('TRANGE', candles).outReal.map((x, i) => (x / candles.close[i]) * 100);
      expectClose(natr(candles, { period: 1 }), tr, { label: `${name} NATR(1)` });
      for (const period of [2, 14, 30]) {
        const ref = talib('NATR', candles, { optInTimePeriod: period }).outReal;
        expectClose(natr(candles, { period }), ref, {
          label: `${name} NATR(${period})`,
          // TA-Lib reads 0 where |close| < 1e-8 (never on these series; kept for other data).
          skip: (i) => Math.abs(candles.close[i]) < 1e-8,
        });
      }
    }
  });

  it('holds the streaming properties', () => {
    const sets: NatrOptions[] = [{ period: 1 }, { period: 14 }, { period: 3, convention: 'tradingview' }];
    for (const options of sets) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => natr(toColumns(rows), options),
        stream: () => new NATR(options),
        lookback: natr.lookback(options),
        constant: { input: { time: 0, open: 5, high: 6, low: 4, close: 5, volume: 1 }, expected: 40 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => natr(c as unknown as HLC, o), ['high', 'low', 'close'], ['period']);
  });
});
