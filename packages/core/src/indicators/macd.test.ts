import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSeriesBadInput } from '../testing/bad-input.js';
import { expectClose } from '../testing/compare.js';
import { checkIndicatorProperties, priceSeries, pricesPast } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import { talib } from '../testing/talib.js';
import { ema } from './ema.js';
import { MACD, macd } from './macd.js';

/**
 * Each EMA is exact to a few ulps of the price level, but `ema` evaluates the recurrence as
 * `ema * (1 - k) + x * k` where TA-Lib writes `(x - ema) * k + ema`. The MACD line is a difference
 * of two EMAs, so where it is itself at that rounding level (a flat generated series) only the
 * absolute agreement to `16 * eps * max|x|` can be asked: those positions are masked.
 */
function roundingLevel(xs: ArrayLike<number>, a: Float64Array, e: Float64Array): (i: number) => boolean {
  let m = 0;
  for (let i = 0; i < xs.length; i++) m = Math.max(m, Math.abs(xs[i]));
  return (i) => Math.abs(a[i] - e[i]) <= 16 * Number.EPSILON * m;
}

function expectTalibMacd(xs: ArrayLike<number>, fast: number, slow: number, signal: number, label: string): void {
  const ref = talib(
    'MACD',
    { inReal: xs },
    { optInFastPeriod: fast, optInSlowPeriod: slow, optInSignalPeriod: signal },
  );
  const out = macd(xs, { fast, slow, signal });
  const pairs: [Float64Array, Float64Array, string][] = [
    [out.macd, ref.outMACD, 'macd'],
    [out.signal, ref.outMACDSignal, 'signal'],
    [out.histogram, ref.outMACDHist, 'histogram'],
  ];
  for (const [a, e, what] of pairs) expectClose(a, e, { label: `${label} ${what}`, skip: roundingLevel(xs, a, e) });
}

describe('macd', () => {
  it('seeds the fast EMA on the fast values ending at index slow - 1 (TA-Lib alignment)', () => {
    const xs = Array.from({ length: 12 }, (_, i) => 10 + Math.sin(i) * 3 + i * 0.5);
    const { macd: line, signal, histogram } = macd(xs, { fast: 2, slow: 4, signal: 3 });
    expect(macd.lookback({ fast: 2, slow: 4, signal: 3 })).toBe(5);
    expect(macd.lookback()).toBe(33);
    const slowEma = ema(xs, { period: 4 });
    const fastEma = ema(xs.slice(2), { period: 2 });
    const lineAt = (i: number) => fastEma[i - 2] - slowEma[i];
    const sig = ema([3, 4, 5, 6, 7, 8, 9, 10, 11].map(lineAt), { period: 3 });
    for (let i = 0; i < 5; i++) {
      expect([line[i], signal[i], histogram[i]].every(Number.isNaN)).toBe(true);
    }
    for (let i = 5; i < xs.length; i++) {
      expect(line[i]).toBeCloseTo(lineAt(i), 12);
      expect(signal[i]).toBeCloseTo(sig[i - 3], 12);
      expect(histogram[i]).toBeCloseTo(lineAt(i) - sig[i - 3], 12);
    }
  });

  it('swaps fast and slow when fast is the longer one, as TA-Lib does', () => {
    const xs = Array.from({ length: 60 }, (_, i) => 50 + Math.cos(i / 3) * 4);
    expect(macd(xs, { fast: 26, slow: 12 })).toEqual(macd(xs, { fast: 12, slow: 26 }));
    expect(macd.lookback({ fast: 26, slow: 12 })).toBe(33);
  });

  it('reads the MACD line itself as signal for signal period 1 (TA-Lib misaligns that case)', () => {
    const xs = [1, 2, 3, 5, 4, 6, 7, 8, 6, 5];
    const out = macd(xs, { fast: 2, slow: 3, signal: 1 });
    expect(macd.lookback({ fast: 2, slow: 3, signal: 1 })).toBe(2);
    expect(Number.isNaN(out.macd[1])).toBe(true);
    for (let i = 2; i < xs.length; i++) {
      expect(out.signal[i]).toBe(out.macd[i]);
      expect(out.histogram[i]).toBe(0);
    }
    // TA-Lib with signal period 2 has the same MACD line from index 3 on.
    const ref = talib('MACD', { inReal: xs }, { optInFastPeriod: 2, optInSlowPeriod: 3, optInSignalPeriod: 2 });
    expectClose(out.macd.subarray(3), ref.outMACD.subarray(3), { label: 'macd line' });
  });

  it.skipIf(!sharedDataDir)(`matches TA-Lib MACD on the real series (skips when ${sharedDataSkipReason})`, () => {
    for (const { name, candles } of loadSharedSeries()) {
      for (const [fast, slow, signal] of [
        [12, 26, 9],
        [5, 35, 5],
        [2, 3, 2],
        [8, 8, 4],
        [26, 12, 9],
      ]) {
        expectTalibMacd(candles.close, fast, slow, signal, `${name} MACD(${fast},${slow},${signal})`);
      }
    }
  });

  it('matches TA-Lib MACD on generated series', () => {
    const r = reach('a TA-Lib MACD value');
    r.assert(
      fc.property(
        priceSeries(35, 200),
        fc.integer({ min: 2, max: 15 }),
        fc.integer({ min: 2, max: 30 }),
        fc.integer({ min: 2, max: 12 }),
        (xs, fast, slow, signal) => {
          if (!r.hitIf(xs.length > macd.lookback({ fast, slow, signal }))) {
            expect(Array.from(macd(xs, { fast, slow, signal }).macd).every(Number.isNaN)).toBe(true);
            return;
          }
          expectTalibMacd(xs, fast, slow, signal, `MACD(${fast},${slow},${signal})`);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('holds the streaming properties', () => {
    for (const [fast, slow, signal] of [
      [12, 26, 9],
      [3, 7, 2],
      [1, 1, 1],
      [5, 2, 3],
    ]) {
      checkIndicatorProperties({
        inputs: pricesPast,
        batch: (xs) => ({ ...macd(xs, { fast, slow, signal }) }),
        stream: () => new MACD({ fast, slow, signal }),
        lookback: macd.lookback({ fast, slow, signal }),
        constant: { input: 42.5, expected: { macd: 0, signal: 0, histogram: 0 } },
      });
    }
  });

  it('rejects bad input with a typed error', () => {
    checkSeriesBadInput(macd, ['fast', 'slow', 'signal']);
    expect(() => new MACD().update(Number.NaN)).toThrow(/finite/);
  });
});
