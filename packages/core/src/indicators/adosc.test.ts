import { describe, expect, it } from 'vitest';
import { checkCandleBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { candlesPast, checkIndicatorProperties, toColumns } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import type { Candle, HLCV } from '../types.js';
import { ad } from './ad.js';
import { ADOsc, adOsc } from './adosc.js';

const PERIODS: ReadonlyArray<[number, number]> = [
  [3, 10],
  [2, 2],
  [2, 5],
  [10, 3],
  [12, 26],
];

describe('adOsc', () => {
  it('matches a worked example', () => {
    // A/D line 100, 60, 60, 70 (see ad.test.ts). fast 1 (k = 1) follows the line itself;
    // slow 3 (k = 0.5) seeded with 100: 80, 70, 70. adosc = line - slow EMA from index 2.
    const candles = { high: [10, 10, 10, 12], low: [8, 8, 8, 8], close: [10, 8, 9, 11], volume: [100, 40, 70, 20] };
    expect(Array.from(ad(candles))).toEqual([100, 60, 60, 70]);
    expect(Array.from(adOsc(candles, { fast: 1, slow: 3 }))).toEqual([Number.NaN, Number.NaN, -10, 0]);
    expect(adOsc.lookback()).toBe(9);
    expect(adOsc.lookback({ fast: 10, slow: 3 })).toBe(9);
    expect(adOsc.lookback({ fast: 1, slow: 1 })).toBe(0);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib ADOSC on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      const { high, low, close, volume } = candles;
      for (const [fast, slow] of PERIODS) {
        const ref = talib('ADOSC', { high, low, close, volume }, { optInFastPeriod: fast, optInSlowPeriod: slow });
        expectClose(adOsc(candles, { fast, slow }), ref.outReal, { label: `${name} ADOSC(${fast},${slow})` });
      }
    }
  });

  it('holds the streaming properties', () => {
    for (const [fast, slow] of [
      [3, 10],
      [1, 1],
      [4, 2],
    ] as const) {
      checkIndicatorProperties<Candle>({
        inputs: candlesPast,
        batch: (rows) => adOsc(toColumns(rows), { fast, slow }),
        stream: () => new ADOsc({ fast, slow }),
        lookback: adOsc.lookback({ fast, slow }),
        // A flat candle (high == low) never moves the A/D line: both EMAs sit on it.
        constant: { input: { time: 0, open: 3, high: 3, low: 3, close: 3, volume: 10 }, expected: 0 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkCandleBadInput((c, o) => adOsc(c as unknown as HLCV, o), ['high', 'low', 'close', 'volume'], ['fast', 'slow']);
    expect(() => new ADOsc({ slow: 0 })).toThrow(/slow/);
  });
});
