import type { HLC } from '../types.js';

/** Where TA-Lib's absolute 1e-8 zero tests fire in PLUS_DI, MINUS_DI, DX and ADX. */
export interface DmZeroTests {
  /** The Wilder sum of the true range is below 1e-8: TA-Lib's DIs read 0 and its DX/ADX hold. */
  tr: Uint8Array;
  /** The DIs sum below 1e-8 (with a non-zero true range): TA-Lib's DX and ADX hold. */
  diSum: Uint8Array;
}

/**
 * Replays TA-Lib's directional movement sums (seeded over `period - 1` bars, then
 * `s - s / period + x`) and flags the bars where its 1e-8 zero tests fire, so that a comparison
 * can skip exactly the bars where our exact-zero convention legitimately differs.
 */
export function talibDmZeroTests(c: HLC, period: number): DmZeroTests {
  const n = c.close.length;
  const tr = new Uint8Array(n);
  const diSum = new Uint8Array(n);
  let p = 0;
  let m = 0;
  let t = 0;
  for (let i = 1; i < n; i++) {
    const up = c.high[i] - c.high[i - 1];
    const down = c.low[i - 1] - c.low[i];
    const plus = up > 0 && up > down ? up : 0;
    const minus = down > 0 && down > up ? down : 0;
    const range = Math.max(
      c.high[i] - c.low[i],
      Math.abs(c.close[i - 1] - c.high[i]),
      Math.abs(c.close[i - 1] - c.low[i]),
    );
    if (i < period) {
      p += plus;
      m += minus;
      t += range;
      continue;
    }
    p = p - p / period + plus;
    m = m - m / period + minus;
    t = t - t / period + range;
    if (t < 1e-8) tr[i] = 1;
    else if (100 * (m / t) + 100 * (p / t) < 1e-8) diSum[i] = 1;
  }
  return { tr, diSum };
}

/**
 * Bars where an ADX may legitimately differ from TA-Lib's: within `decay` bars after a DX bar
 * where TA-Lib's zero test fired (TA-Lib skips the update there, we count DX 0; the difference,
 * at most 100 / period, then shrinks by (period - 1) / period per bar).
 */
export function adxSkip(z: DmZeroTests, period: number): (i: number) => boolean {
  const n = z.tr.length;
  const skip = new Uint8Array(n);
  const decay = period === 1 ? 1 : Math.ceil(Math.log(1e-13 * period) / Math.log((period - 1) / period)) + 1;
  let last = -Infinity;
  for (let i = period; i < n; i++) {
    if (z.tr[i] || z.diSum[i]) last = i;
    if (i - last < decay) skip[i] = 1;
  }
  return (i) => skip[i] === 1;
}
