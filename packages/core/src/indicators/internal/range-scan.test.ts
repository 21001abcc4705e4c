import { describe, expect, it } from 'vitest';
import { rangePositionInto } from './range-scan.js';

/** TA-Lib's WILLR / STOCH scan as TA-Lib writes it, branches and all: the order to match. */
function taLibScan(
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  period: number,
  williams: boolean,
): Float64Array {
  const n = close.length;
  const out = new Float64Array(n).fill(Number.NaN);
  let lowest = 0;
  let highest = 0;
  let lowestIdx = -1;
  let highestIdx = -1;
  for (let today = period - 1, trailing = 0; today < n; today++, trailing++) {
    let tmp = low[today];
    if (lowestIdx < trailing) {
      lowestIdx = trailing;
      lowest = low[trailing];
      for (let i = trailing + 1; i <= today; i++) {
        tmp = low[i];
        if (tmp < lowest) {
          lowestIdx = i;
          lowest = tmp;
        }
      }
    } else if (tmp <= lowest) {
      lowestIdx = today;
      lowest = tmp;
    }
    tmp = high[today];
    if (highestIdx < trailing) {
      highestIdx = trailing;
      highest = high[trailing];
      for (let i = trailing + 1; i <= today; i++) {
        tmp = high[i];
        if (tmp > highest) {
          highestIdx = i;
          highest = tmp;
        }
      }
    } else if (tmp >= highest) {
      highestIdx = today;
      highest = tmp;
    }
    const c = close[today];
    const diff = (highest - lowest) / (williams ? -100 : 100);
    out[today] = diff === 0 ? (williams ? -50 : 50) : williams ? (highest - c) / diff : (c - lowest) / diff;
  }
  return out;
}

/** Deterministic candles; `zeros` draws prices from {+0, -0, -0.5, -1}, where only the sign of a zero differs. */
function series(n: number, seed: number, zeros: boolean) {
  let s = seed;
  const rnd = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  let p = 100;
  for (let i = 0; i < n; i++) {
    if (zeros) {
      const z = () => (rnd() < 0.5 ? 0 : -0);
      high[i] = rnd() < 0.8 ? z() : -0.5;
      close[i] = Math.min(rnd() < 0.8 ? z() : -0.75, high[i]);
      low[i] = rnd() < 0.5 ? -1 : Math.min(close[i], high[i]);
    } else {
      const o = p;
      p *= 1 + (rnd() - 0.5) * 0.02;
      close[i] = p;
      high[i] = Math.max(o, p) * (1 + rnd() * 0.005);
      low[i] = Math.min(o, p) * (1 - rnd() * 0.005);
    }
  }
  return { high, low, close };
}

describe('rangePositionInto', () => {
  it("equals TA-Lib's scan bit for bit, zeros of either sign included", () => {
    for (const zeros of [false, true]) {
      for (const n of [1, 7, 40, 333, 5000]) {
        for (let period = 1; period <= 21; period++) {
          for (const williams of [true, false]) {
            const { high, low, close } = series(n, 7 * n + period, zeros);
            const want = taLibScan(high, low, close, period, williams);
            const got = new Float64Array(n).fill(Number.NaN);
            expect(rangePositionInto(high, low, close, 0, n, period, got, williams)).toBe(0);
            for (let i = 0; i < n; i++) {
              if (!Object.is(got[i], want[i])) {
                expect.fail(
                  `n ${n}, period ${period}, williams ${williams}, zeros ${zeros}: [${i}] ${got[i]} != ${want[i]}`,
                );
              }
            }
          }
        }
      }
    }
  });

  it('leaves the slots before the first output as they were, from any start', () => {
    const { high, low, close } = series(100, 3, false);
    const out = new Float64Array(100).fill(7);
    rangePositionInto(high, low, close, 10, 100, 14, out, false);
    for (let i = 0; i < 23; i++) expect(out[i]).toBe(7);
    const want = taLibScan(high.subarray(10), low.subarray(10), close.subarray(10), 14, false);
    for (let i = 23; i < 100; i++) expect(Object.is(out[i], want[i - 10])).toBe(true);
  });
});
