import type { CandleLike, HLC } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, columnsLength, outputColumn } from './internal/validate.js';

/** Options of {@link cci}. */
export interface CciOptions {
  /** Number of typical prices in the mean and the mean deviation. Default 20. */
  period?: number;
}

function periodOf(options?: CciOptions): number {
  return checkInt('period', options?.period ?? 20, 2);
}

const FIELDS = ['high', 'low', 'close'] as const;

/**
 * The exact running sum of the window: `sum[0] + sum[1]` is the sum of the typical prices added
 * minus those removed, kept as a double-double (Knuth's TwoSum), so the mean does not drift over
 * millions of candles the way a plain running sum does (its rounding errors add up and the
 * cancellation in `tp - mean` magnifies them). `x` is added, or removed when negated.
 */
function addExact(sum: Float64Array, x: number): void {
  const hi = sum[0];
  const s = hi + x;
  const bp = s - hi;
  const err = hi - (s - bp) + (x - bp);
  // Renormalise so that sum[0] stays the nearest double to the sum and sum[1] stays tiny.
  const lo = sum[1] + err;
  const t = s + lo;
  sum[0] = t;
  sum[1] = lo - (t - s);
}

/** Sum of |buf[j] - avg| in slot order, in four partial sums (independent additions, not one chain). */
function deviation(buf: Float64Array, avg: number): number {
  let d0 = 0;
  let d1 = 0;
  let d2 = 0;
  let d3 = 0;
  let j = 0;
  // buf.length === period; bounding by it lets V8 drop the bounds checks.
  for (; j + 3 < buf.length; j += 4) {
    d0 += Math.abs(buf[j] - avg);
    d1 += Math.abs(buf[j + 1] - avg);
    d2 += Math.abs(buf[j + 2] - avg);
    d3 += Math.abs(buf[j + 3] - avg);
  }
  for (; j < buf.length; j++) d0 += Math.abs(buf[j] - avg);
  return d0 + d1 + (d2 + d3);
}

/**
 * CCI of the newest typical price `tp` over the ring buffer `buf` (slot `i % period` holds the
 * typical price of candle i) with the window's mean `avg` from the running sum. Batch and stream
 * share it, so they agree exactly.
 *
 * Where the window is nearly flat (its total deviation within `period^2 * 2e-6` of the mean, a
 * spread of a few parts per million) `tp - avg` is a difference of nearly equal numbers and any
 * two ways of rounding the mean disagree; there the mean is summed afresh in slot order, as
 * TA-Lib does, so those windows read what TA-Lib reads.
 */
function cciOf(buf: Float64Array, period: number, tp: number, avg: number): number {
  let mean = avg;
  let dev = deviation(buf, mean);
  if (dev <= Math.abs(mean) * period * period * 2e-6) {
    let sum = 0;
    for (let j = 0; j < period; j++) sum += buf[j];
    mean = sum / period;
    dev = deviation(buf, mean);
  }
  const num = tp - mean;
  return num === 0 || dev === 0 ? 0 : num / (0.015 * (dev / period));
}

/**
 * Commodity Channel Index (Lambert).
 *
 * Formula (TA-Lib `CCI`): typical price `tp = (high + low + close) / 3`;
 * `cci = (tp - mean) / (0.015 * meanDeviation)` over the last `period` typical prices, where
 * `meanDeviation` is the mean of `|tp_i - mean|`. Zero when the deviation from the mean is zero,
 * as in TA-Lib; a flat window (every typical price equal) reads 0 too, where TA-Lib can print
 * +-66.7 when the rounded mean misses the price by an ulp. The mean comes from an exact running
 * sum (double-double), not a fresh sum per candle: it agrees with the two-pass form to rounding
 * and does not drift. Default period 20. Lookback: `period - 1`.
 */
export const cci = /* @__PURE__ */ withLookback(
  function cci(candles: HLC, options?: CciOptions): Float64Array {
    const period = periodOf(options);
    const n = columnsLength(candles, FIELDS);
    const out = outputColumn(n, period - 1);
    if (cciInto(candles.high, candles.low, candles.close, n, period, out) !== 0) checkColumns(candles, FIELDS);
    return out;
  },
  (options?: CciOptions) => periodOf(options) - 1,
);

/**
 * The kernel of {@link cci}: writes from index `period - 1` into `out` and returns the sum of
 * `x * 0` over the three columns (the finiteness check, folded into this pass). A function of its
 * own with nothing after its loop, so V8's mid-loop (OSR) and later full compiles see the same
 * complete feedback whatever ran before.
 */
function cciInto(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  n: number,
  period: number,
  out: Float64Array,
): number {
  const buf = new Float64Array(period);
  // The exact running sum hi + lo, as in `addExact` (written out here to stay in registers).
  let hi = 0;
  let lo = 0;
  let slot = 0;
  let run = 0;
  let last = Number.NaN;
  // The finiteness check, folded into this pass: x * 0 is 0 for finite x and NaN otherwise.
  let bad = 0;
  for (let i = 0; i < n; i++) {
    const h = high[i];
    const l = low[i];
    const c = close[i];
    bad += h * 0 + l * 0 + c * 0;
    const tp = (h + l + c) / 3;
    run = tp === last ? run + 1 : 1;
    last = tp;
    if (i >= period) {
      const x = -buf[slot];
      const s1 = hi + x;
      const bp = s1 - hi;
      const l1 = lo + (hi - (s1 - bp) + (x - bp));
      hi = s1 + l1;
      lo = l1 - (hi - s1);
    }
    {
      const s1 = hi + tp;
      const bp = s1 - hi;
      const l1 = lo + (hi - (s1 - bp) + (tp - bp));
      hi = s1 + l1;
      lo = l1 - (hi - s1);
    }
    buf[slot] = tp;
    slot = slot + 1 === period ? 0 : slot + 1;
    if (i < period - 1) continue;
    out[i] = run >= period ? 0 : cciOf(buf, period, tp, (hi + lo) / period);
  }
  return bad;
}

/** Streaming {@link cci}. */
export class CCI extends StreamBase<CandleLike, number> {
  readonly period: number;
  private readonly buf: Float64Array;
  private run = 0;
  private last = Number.NaN;
  private pRun = 0;
  private pLast = Number.NaN;
  /** The exact running sum of the window, and its value and the evicted price before the last update. */
  private readonly sum = new Float64Array(2);
  private pSum0 = 0;
  private pSum1 = 0;
  private pEvicted = 0;

  constructor(options?: CciOptions) {
    const period = periodOf(options);
    super(period - 1, Number.NaN);
    this.period = period;
    this.buf = new Float64Array(this.period);
  }

  protected override save(): void {
    this.pRun = this.run;
    this.pLast = this.last;
    this.pSum0 = this.sum[0];
    this.pSum1 = this.sum[1];
    // The slot the next candle overwrites (n is incremented after save).
    this.pEvicted = this.buf[this.n % this.period];
  }

  protected override restore(): void {
    this.run = this.pRun;
    this.last = this.pLast;
    this.sum[0] = this.pSum0;
    this.sum[1] = this.pSum1;
    this.buf[(this.n - 1) % this.period] = this.pEvicted;
  }

  update(candle: CandleLike): number {
    checkCandle(candle, FIELDS);
    this.save();
    this.n++;
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  replace(candle: CandleLike): number {
    checkCandle(candle, FIELDS);
    checkReplace(this.n);
    this.restore();
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  protected step(candle: CandleLike): number {
    // Same operations, in the same order, as the batch loop.
    const tp = ((candle.high as number) + (candle.low as number) + (candle.close as number)) / 3;
    this.run = tp === this.last ? this.run + 1 : 1;
    this.last = tp;
    const slot = (this.n - 1) % this.period;
    if (this.n > this.period) addExact(this.sum, -this.buf[slot]);
    addExact(this.sum, tp);
    this.buf[slot] = tp;
    if (this.n < this.period) return Number.NaN;
    return this.run >= this.period ? 0 : cciOf(this.buf, this.period, tp, (this.sum[0] + this.sum[1]) / this.period);
  }
}
