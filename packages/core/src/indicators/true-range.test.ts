import { describe, expect, it } from 'vitest';
import { checkCandleBadInput, expectInputError } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import type { Candle, HLC } from '../types.js';
import { TrueRange, type TrueRangeOptions, trueRange } from './true-range.js';

describe('trueRange', () => {
  it('extends the range to the previous close', () => {
    const c = { high: [10, 11, 12, 11], low: [9, 10, 10, 9], close: [9.5, 10.5, 11, 10] };
    expect(Array.from(trueRange(c))).toEqual([Number.NaN, 1.5, 2, 2]);
    expect(Array.from(trueRange(c, { convention: 'tradingview' }))).toEqual([1, 1.5, 2, 2]);
    // a gap down: the range reaches up to the previous close
    expect(trueRange({ high: [5, 3], low: [4, 2], close: [5, 2.5] })[1]).toBe(3);
    expect(trueRange.lookback()).toBe(1);
    expect(trueRange.lookback({ convention: 'tradingview' })).toBe(0);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib TRANGE on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      const ref = talib('TRANGE', candles).outReal;
      const ours = trueRange(candles);
      expectClose(ours, ref, { label: `${name} TRANGE`, rel: 0 });
    }
  });

  it('holds the streaming properties', () => {
    const sets: TrueRangeOptions[] = [{}, { convention: 'tradingview' }];
    for (const options of sets) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => trueRange(toColumns(rows), options),
        stream: () => new TrueRange(options),
        lookback: trueRange.lookback(options),
        constant: { input: { time: 0, open: 5, high: 6, low: 4, close: 5, volume: 1 }, expected: 2 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c) => trueRange(c as unknown as HLC), ['high', 'low', 'close'], []);
    expectInputError(
      () => trueRange({ high: [1], low: [1], close: [1] }, { convention: 'x' as 'talib' }),
      'invalid_option',
    );
  });
});
