import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, pricesPast } from '../testing/props.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { RSI, rsi } from './rsi.js';

/** Where TA-Lib's absolute 1e-8 zero test fires (flat or sub-1e-8 windows), its RSI is 0 by fiat. */
function talibZeroed(values: ArrayLike<number>, period: number): (i: number) => boolean {
  const sums = new Float64Array(values.length);
  let g = 0;
  let l = 0;
  for (let i = 1; i < values.length; i++) {
    const d = values[i] - values[i - 1];
    if (i <= period) {
      if (d < 0) l -= d;
      else g += d;
      if (i === period) {
        g /= period;
        l /= period;
      }
    } else {
      g = (g * (period - 1) + Math.max(d, 0)) / period;
      l = (l * (period - 1) + Math.max(-d, 0)) / period;
    }
    sums[i] = g + l;
  }
  return (i) => sums[i] < 1e-8;
}

describe('rsi', () => {
  it('reads 50 on a flat window and 100 on a rising one', () => {
    expect(rsi([5, 5, 5, 5], { period: 2 })[3]).toBe(50);
    expect(rsi([1, 2, 3, 4], { period: 2 })[3]).toBe(100);
    expect(rsi.lookback({ period: 14 })).toBe(14);
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib RSI on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const period of [2, 14, 30]) {
        const ref = talib('RSI', { inReal: candles.close }, { optInTimePeriod: period }).outReal;
        expectClose(rsi(candles.close, { period }), ref, {
          label: `${name} RSI(${period})`,
          skip: talibZeroed(candles.close, period),
        });
      }
    }
  });

  it('holds the streaming properties', () => {
    for (const period of [1, 2, 14]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => rsi(xs, { period }),
        stream: () => new RSI({ period }),
        lookback: rsi.lookback({ period }),
        constant: { input: 3, expected: 50 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(rsi, ['period']);
  });
});
