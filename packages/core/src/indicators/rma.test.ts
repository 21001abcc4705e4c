import ixjb from '@ixjb94/indicators';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, priceSeries, pricesPast } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { RMA, rma } from './rma.js';

const ix = new ixjb.IndicatorsSync();

/** @ixjb94/indicators output starts at its first defined value; pad it to the input's length. */
function padded(values: ArrayLike<number>, n: number): Float64Array {
  const out = new Float64Array(n).fill(Number.NaN);
  out.set(Array.from(values), n - values.length);
  return out;
}

describe('rma', () => {
  it('matches a worked example', () => {
    // seed mean(1, 2, 3) = 2, then 2 + (6 - 2) / 3, ...
    const out = rma([1, 2, 3, 6, 0], { period: 3 });
    expect(Array.from(out.subarray(0, 3))).toEqual([Number.NaN, Number.NaN, 2]);
    expect(out[3]).toBeCloseTo(10 / 3, 15);
    expect(out[4]).toBeCloseTo(10 / 3 - 10 / 9, 15);
    expect(Array.from(rma([4, 5], { period: 1 }))).toEqual([4, 5]);
    expect(rma.lookback({ period: 3 })).toBe(2);
    expect(rma.lookback()).toBe(13);
  });

  it.skipIf(!sharedDataDir)(
    `applied to TA-Lib TRANGE it equals TA-Lib ATR on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        const { high, low, close } = candles;
        const tr = talib('TRANGE', { high, low, close }).outReal;
        for (const period of [2, 14, 30]) {
          const ref = talib('ATR', { high, low, close }, { optInTimePeriod: period }).outReal;
          const ours = new Float64Array(close.length).fill(Number.NaN);
          ours.set(rma(tr.subarray(1), { period }), 1);
          expectClose(ours, ref, { label: `${name} RMA(TRANGE, ${period}) vs ATR` });
        }
      }
    },
  );

  it('matches @ixjb94/indicators wilders on generated series', () => {
    const r = reach('an @ixjb94/indicators Wilder value');
    r.assert(
      fc.property(priceSeries(25, 150), fc.integer({ min: 1, max: 30 }), (xs, period) => {
        if (!r.hitIf(xs.length > rma.lookback({ period }))) return;
        expectClose(rma(xs, { period }), padded(ix.wilders(xs, period), xs.length), { label: `RMA(${period})` });
      }),
      { numRuns: 100 },
    );
  });

  it('holds the streaming properties', () => {
    for (const period of [1, 2, 14]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => rma(xs, { period }),
        stream: () => new RMA({ period }),
        lookback: rma.lookback({ period }),
        constant: { input: 42.5, expected: 42.5 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(rma, ['period']);
    expect(() => new RMA().update(Number.NaN)).toThrow(/finite/);
    expect(() => new RMA().replace(1)).toThrow(/replace/);
  });
});
