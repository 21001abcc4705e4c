import ixjb from '@ixjb94/indicators';
import fc from 'fast-check';
import * as tsig from 'trading-signals';
import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, priceSeries, pricesPast } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { HMA, hma } from './hma.js';
import { wma } from './wma.js';

const ix = new ixjb.IndicatorsSync();

/** @ixjb94/indicators output starts at its first defined value; pad it to the input's length. */
function padded(values: ArrayLike<number>, n: number): Float64Array {
  const out = new Float64Array(n).fill(Number.NaN);
  out.set(Array.from(values), n - values.length);
  return out;
}

/** trading-signals HMA, fed one value at a time (an independent streaming implementation). */
function tradingSignalsHma(xs: ArrayLike<number>, period: number): Float64Array {
  const ind = new tsig.HMA(period);
  const out = new Float64Array(xs.length).fill(Number.NaN);
  for (let i = 0; i < xs.length; i++) {
    const r = ind.update(xs[i], false);
    if (r !== null && ind.isStable) out[i] = Number(r);
  }
  return out;
}

describe('hma', () => {
  it('is the WMA of 2 * WMA(n/2) - WMA(n) over floor(sqrt(n))', () => {
    const xs = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9];
    const period = 9;
    const half = wma(xs, { period: 4 });
    const full = wma(xs, { period: 9 });
    const diff = Array.from(xs, (_, i) => 2 * half[i] - full[i]).slice(8);
    const want = wma(diff, { period: 3 });
    const out = hma(xs, { period });
    expect(hma.lookback({ period })).toBe(10);
    expect(Array.from(out.subarray(0, 10)).every(Number.isNaN)).toBe(true);
    for (let i = 10; i < xs.length; i++) expect(out[i]).toBeCloseTo(want[i - 8], 12);
    expect(hma.lookback()).toBe(19 + 3);
  });

  it.skipIf(!sharedDataDir)(
    `matches @ixjb94/indicators and trading-signals HMA on the real series (skips when ${sharedDataSkipReason})`,
    () => {
      for (const { name, candles } of loadSharedSeries()) {
        const xs = candles.close;
        for (const period of [2, 9, 16, 20, 55]) {
          const ours = hma(xs, { period });
          expectClose(ours, padded(ix.hma(Array.from(xs), period), xs.length), {
            label: `${name} HMA(${period}) ixjb`,
          });
          expectClose(ours, tradingSignalsHma(xs, period), { label: `${name} HMA(${period}) trading-signals` });
        }
      }
    },
  );

  it('matches @ixjb94/indicators HMA on generated series', () => {
    const r = reach('an @ixjb94/indicators HMA value');
    r.assert(
      fc.property(priceSeries(40, 200), fc.integer({ min: 2, max: 40 }), (xs, period) => {
        const ours = hma(xs, { period });
        if (!r.hitIf(xs.length > hma.lookback({ period }))) {
          expect(Array.from(ours).every(Number.isNaN)).toBe(true);
          return;
        }
        expectClose(ours, padded(ix.hma(xs, period), xs.length), { label: `HMA(${period})` });
      }),
      { numRuns: 150 },
    );
  });

  it('holds the streaming properties', () => {
    for (const period of [2, 3, 9, 16]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => hma(xs, { period }),
        stream: () => new HMA({ period }),
        lookback: hma.lookback({ period }),
        constant: { input: 42.5, expected: 42.5 },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(hma, ['period']);
    expect(() => hma([1, 2, 3], { period: 1 })).toThrow(/period must be/);
    expect(() => new HMA().update(Number.NaN)).toThrow(/finite/);
  });
});
