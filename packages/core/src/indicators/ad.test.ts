import { describe, expect, it } from 'vitest';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import type { Candle, HLCV } from '../types.js';
import { AD, ad } from './ad.js';

describe('ad', () => {
  it('matches a worked example', () => {
    // Close at the high adds the whole volume, at the low subtracts it, mid-range adds 0,
    // a flat bar (high == low) adds 0, and a close at 3/4 of the range adds half the volume.
    const out = ad({
      high: [10, 10, 10, 5, 12],
      low: [8, 8, 8, 5, 8],
      close: [10, 8, 9, 5, 11],
      volume: [100, 40, 70, 1000, 20],
    });
    expect(Array.from(out)).toEqual([100, 60, 60, 60, 70]);
    expect(ad.lookback()).toBe(0);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib AD on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      const { high, low, close, volume } = candles;
      const ref = talib('AD', { high, low, close, volume }).outReal;
      expectClose(ad(candles), ref, { label: `${name} AD` });
    }
  });

  it('holds the streaming properties', () => {
    checkIndicatorProperties<Candle>({
      inputs: candlesPast,
      batch: (rows) => ad(toColumns(rows)),
      stream: () => new AD(),
      lookback: ad.lookback(),
      // A constant candle is flat (high == low): it never accumulates anything.
      constant: { input: { time: 0, open: 3, high: 3, low: 3, close: 3, volume: 500 }, expected: 0 },
    });
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c) => ad(c as unknown as HLCV), ['high', 'low', 'close', 'volume'], []);
    expect(() => new AD().update({ high: 1, low: 1, close: 1 })).toThrow(/volume/);
  });
});
