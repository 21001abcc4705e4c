/**
 * Where each close sits in the range of the last `period` candles (the highest high and lowest
 * low), for candles `[from + period - 1, n)`, written into `out`. The extremes come from TA-Lib's
 * scan: O(1) per candle, rescanning the window only when an extreme leaves it, and a new extreme
 * taken without a branch (on a random walk whether a candle makes one is a coin toss, and a
 * mispredicted branch costs more than the rest of the step); the rescans keep their branches.
 * - `williams` false, the stochastic's raw %K: `(close - lowest) / ((highest - lowest) / 100)`, 50
 *   on a flat range;
 * - `williams` true, Williams %R: `(highest - close) / ((highest - lowest) / -100)`, -50 on a flat
 *   range.
 * Returns the sum of `x * 0` over the values read from `from` (0 when all are finite: the
 * finiteness check, folded into this pass). A function of its own with nothing after its loop, so
 * V8's mid-loop and later full compiles see the same complete feedback whatever ran before.
 * @internal
 */
export function rangePositionInto(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  from: number,
  n: number,
  period: number,
  out: Float64Array,
  williams: boolean,
): number {
  let bad = 0;
  for (let i = from; i < n && i < from + period - 1; i++) bad += high[i] * 0 + low[i] * 0 + close[i] * 0;
  // Two-slot scratch arrays: `pick[+(cond)]` selects without a branch.
  const pickLow = new Float64Array(2);
  const pickHigh = new Float64Array(2);
  let lowest = 0;
  let highest = 0;
  let lowestIdx = -1;
  let highestIdx = -1;
  let trailing = from;
  for (let today = from + period - 1; today < n; today++, trailing++) {
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
      // The same values as `if (tmp <= lowest) { lowestIdx = today; lowest = tmp; }`.
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
    if (williams) {
      const diff = (highest - lowest) / -100;
      out[today] = diff === 0 ? -50 : (highest - c) / diff;
    } else {
      const diff = (highest - lowest) / 100;
      out[today] = diff === 0 ? 50 : (c - lowest) / diff;
    }
  }
  return bad;
}
