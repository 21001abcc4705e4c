import { describe, expect, it } from 'vitest';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import type { Candle, CV } from '../types.js';
import { OBV, obv } from './obv.js';

describe('obv', () => {
  it('matches a worked example', () => {
    const close = [10, 11, 11, 10, 12];
    const volume = [100, 200, 300, 400, 500];
    // 100, +200 (up), =300 (flat, unchanged), -400 (down), +500 (up)
    expect(Array.from(obv({ close, volume }))).toEqual([100, 300, 300, -100, 400]);
    expect(obv.lookback()).toBe(0);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib OBV on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      const ref = talib('OBV', { inReal: candles.close, volume: candles.volume }).outReal;
      expectClose(obv(candles), ref, { label: `${name} OBV` });
    }
  });

  it('holds the streaming properties', () => {
    checkIndicatorProperties<Candle>({
      inputs: candlesPast,
      batch: (rows) => obv(toColumns(rows)),
      stream: () => new OBV(),
      lookback: obv.lookback(),
    });
    // A constant close never moves the total off the first volume.
    expect(Array.from(obv({ close: [5, 5, 5], volume: [7, 8, 9] }))).toEqual([7, 7, 7]);
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c) => obv(c as unknown as CV), ['close', 'volume'], []);
    expect(() => new OBV().update({ close: 1 })).toThrow(/volume/);
    expect(() => new OBV().replace({ close: 1, volume: 1 })).toThrow(/replace/);
  });
});
