import { describe, expect, it } from 'vitest';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import type { Candle, HL } from '../types.js';
import { Donchian, donchian } from './donchian.js';

describe('donchian', () => {
  it('matches a worked example', () => {
    const c = { high: [5, 7, 6, 4, 3], low: [4, 5, 2, 3, 1] };
    const out = donchian(c, { period: 3 });
    expect(Array.from(out.upper)).toEqual([Number.NaN, Number.NaN, 7, 7, 6]);
    expect(Array.from(out.lower)).toEqual([Number.NaN, Number.NaN, 2, 2, 1]);
    expect(Array.from(out.middle)).toEqual([Number.NaN, Number.NaN, 4.5, 4.5, 3.5]);
    // period 1 is the bar itself
    const one = donchian(c, { period: 1 });
    expect(Array.from(one.upper)).toEqual(c.high);
    expect(Array.from(one.lower)).toEqual(c.low);
    expect(donchian.lookback({ period: 20 })).toBe(19);
  });

  it.skipIf(!sharedDataDir)(
    `matches TA-Lib MAX, MIN and MIDPRICE on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        for (const period of [2, 5, 20, 55]) {
          const o = { optInTimePeriod: period };
          const out = donchian(candles, { period });
          const label = `${name} (${period})`;
          expectClose(out.upper, talib('MAX', { inReal: candles.high }, o).outReal, { label: `MAX ${label}`, rel: 0 });
          expectClose(out.lower, talib('MIN', { inReal: candles.low }, o).outReal, { label: `MIN ${label}`, rel: 0 });
          expectClose(out.middle, talib('MIDPRICE', candles, o).outReal, { label: `MIDPRICE ${label}`, rel: 0 });
        }
      }
    },
  );

  it('holds the streaming properties', () => {
    for (const period of [1, 2, 5, 20]) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => donchian(toColumns(rows), { period }),
        stream: () => new Donchian({ period }),
        lookback: donchian.lookback({ period }),
        constant: {
          input: { time: 0, open: 5, high: 6, low: 4, close: 5, volume: 1 },
          expected: { upper: 6, middle: 5, lower: 4 },
        },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => donchian(c as unknown as HL, o), ['high', 'low'], ['period']);
  });
});
