import type { CandleLike, HLC } from '../types.js';
import { withLookback } from './internal/define.js';
import { HighLowWindow } from './internal/high-low-window.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, columnsLength, outputColumn } from './internal/validate.js';

/** Options of {@link willr}. */
export interface WillROptions {
  /** Candles in the highest-high / lowest-low window. Default 14. */
  period?: number;
}

function periodOf(options?: WillROptions): number {
  return checkInt('period', options?.period ?? 14, 1);
}

const FIELDS = ['high', 'low', 'close'] as const;

/** `(HH - close) / ((HH - LL) / -100)`; -50 on a flat window. */
function percentR(highest: number, lowest: number, close: number): number {
  const diff = (highest - lowest) / -100;
  return diff === 0 ? -50 : (highest - close) / diff;
}

/**
 * Williams %R, from -100 (close at the lowest low) to 0 (close at the highest high).
 *
 * Formula (Williams; TA-Lib `WILLR`): `%R = (HH - close) / ((HH - LL) / -100)` over the highest
 * high HH and lowest low LL of the last `period` candles. A flat window (HH = LL) reads -50, where
 * TA-Lib reads 0. Default period 14. Lookback: `period - 1`.
 */
export const willr = /* @__PURE__ */ withLookback(
  function willr(candles: HLC, options?: WillROptions): Float64Array {
    const period = periodOf(options);
    const n = columnsLength(candles, FIELDS);
    const out = outputColumn(n, period - 1);
    if (willrInto(candles.high, candles.low, candles.close, n, period, out) !== 0) checkColumns(candles, FIELDS);
    return out;
  },
  (options?: WillROptions) => periodOf(options) - 1,
);

/**
 * The kernel of {@link willr}: writes from index `period - 1` into `out` and returns the sum
 * of `x * 0` over the columns (the finiteness check, folded into this pass). A function of its own
 * with nothing after its loop, so V8's mid-loop (OSR) and later full compiles see the same complete
 * feedback whatever ran before.
 */
function willrInto(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  n: number,
  period: number,
  out: Float64Array,
): number {
  // The finiteness check, folded into this pass (x * 0 is 0 for finite x, NaN otherwise): the
  // warm-up values here, every later one as the loop reads it.
  let bad = 0;
  for (let i = 0; i < n && i < period - 1; i++) bad += high[i] * 0 + low[i] * 0 + close[i] * 0;
  // Two-slot scratch arrays: `pick[+(cond)]` selects without a branch (see below).
  const pickLow = new Float64Array(2);
  const pickHigh = new Float64Array(2);
  let lowest = 0;
  let highest = 0;
  let lowestIdx = -1;
  let highestIdx = -1;
  let trailing = 0;
  // TA-Lib's scan: O(1) per candle, rescanning only when an extreme leaves the window.
  for (let today = period - 1; today < n; today++, trailing++) {
    let tmp = low[today];
    const c = close[today];
    bad += tmp * 0 + high[today] * 0 + c * 0;
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
    } else {
      // A new lowest low, without a branch: on a random walk it is a coin toss each candle and
      // the mispredicted branch cost a fifth of the kernel. Same values as `if (tmp <= lowest)`.
      const f = +(tmp <= lowest);
      pickLow[0] = lowest;
      pickLow[1] = tmp;
      lowest = pickLow[f];
      lowestIdx += (today - lowestIdx) * f;
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
    } else {
      const f = +(tmp >= highest);
      pickHigh[0] = highest;
      pickHigh[1] = tmp;
      highest = pickHigh[f];
      highestIdx += (today - highestIdx) * f;
    }
    out[today] = percentR(highest, lowest, c);
  }
  return bad;
}

/** Streaming {@link willr}. */
export class WillR extends StreamBase<CandleLike, number> {
  readonly period: number;
  private readonly window: HighLowWindow;

  constructor(options?: WillROptions) {
    const period = periodOf(options);
    super(period - 1, Number.NaN);
    this.period = period;
    this.window = new HighLowWindow(this.period);
  }

  protected override restore(): void {
    this.window.undo();
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
    const w = this.window;
    w.push(candle.high as number, candle.low as number);
    if (this.n < this.period) return Number.NaN;
    return percentR(w.highest, w.lowest, candle.close as number);
  }
}
