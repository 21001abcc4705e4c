import { WARM_HEAD } from './warm.js';

/**
 * Where each close sits in the range of the last `period` candles (the highest high and lowest
 * low), for candles `[from + period - 1, n)`, written into `out`:
 * - `williams` false, the stochastic's raw %K: `(close - lowest) / ((highest - lowest) / 100)`, 50
 *   on a flat range;
 * - `williams` true, Williams %R: `(highest - close) / ((highest - lowest) / -100)`, -50 on a flat
 *   range.
 * The extremes come from {@link blockScan}; a series with a zero price or a non-finite value goes
 * through TA-Lib's scan instead ({@link rangeScan}), which alone decides the sign of a zero extreme
 * as TA-Lib does. Returns the sum of `x * 0` over the values read from `from` (0 when all are
 * finite: the finiteness check, folded into this pass).
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
  const first = from + period - 1;
  if (first < n) {
    // The block pass writes the slots of the first block before `first` as scratch; restored below.
    const kept = out.slice(from, first);
    const sufHigh = new Float64Array(2 * (period + 1)).fill(Number.NEGATIVE_INFINITY);
    const sufLow = new Float64Array(2 * (period + 1)).fill(Number.POSITIVE_INFINITY);
    const blocks = Math.ceil((n - from) / period);
    // A short first call, so that V8 has run the whole pass with feedback before its loop gets hot.
    const head = Math.min(blocks, Math.ceil(WARM_HEAD / period));
    let acc = blockScan(high, low, close, from, 0, head, n, period, out, williams, sufHigh, sufLow);
    acc += blockScan(high, low, close, from, head, blocks, n, period, out, williams, sufHigh, sufLow);
    out.set(kept, from);
    if (acc === 0) return 0;
  }
  let bad = 0;
  for (let i = from; i < n && i < first; i++) bad += high[i] * 0 + low[i] * 0 + close[i] * 0;
  if (first >= n) return bad;
  // lowest, highest, lowestIdx, highestIdx: -1 indices make the first candle scan its window.
  const state = new Float64Array([0, 0, -1, -1]);
  const head = Math.min(n, first + WARM_HEAD);
  bad += rangeScan(high, low, close, first, head, period, out, williams, state);
  return bad + rangeScan(high, low, close, head, n, period, out, williams, state);
}

/**
 * The extremes by van Herk's and Gil and Werman's blocks, for blocks `[k0, k1)` of `period`
 * candles counted from `base`. The window ending at offset j of block k is the suffix of block
 * k - 1 from offset j + 1 and the prefix of block k up to offset j, so its highest high is the
 * larger of the suffix's and the prefix's. One loop walks each block forward (the prefix extremes
 * and the outputs) and, from its other end, backward (its suffix extremes, kept for the next block
 * in the half `k % 2` of `sufHigh` / `sufLow`, whose slot `period` stays infinite), so four
 * independent chains of selects run side by side where TA-Lib's scan waits on a rescan of the
 * window about one candle in three on a random walk. Every select is `pick[+(cond)]`, without a
 * branch: whether a candle makes a new extreme is a coin toss. A maximum is the same number
 * whichever of equal values supplies it, except for the sign of a zero; so the sum returned is
 * that of `x * 0` over the values plus the count of candles whose high or low is 0 (or whose
 * product with the other underflows to 0), and is 0 only when every value is finite and nonzero.
 * Slots of block 0 before its last are written with partial windows.
 */
function blockScan(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  base: number,
  k0: number,
  k1: number,
  n: number,
  p: number,
  out: Float64Array,
  williams: boolean,
  sufHigh: Float64Array,
  sufLow: Float64Array,
): number {
  // Williams: (highest - close) / ((highest - lowest) / -100), -50 when flat;
  // stochastic: (close - lowest) / ((highest - lowest) / 100), 50 when flat.
  const scale = williams ? -100 : 100;
  const flat = williams ? -50 : 50;
  // Six two-slot selects in one array: prefix high, prefix low, suffix high, suffix low, and the
  // window's high and low.
  const pick = new Float64Array(12);
  const half = p + 1;
  let acc = 0;
  for (let k = k0; k < k1; k++) {
    const start = base + k * p;
    const cur = (k & 1) * half;
    const prev = half - cur;
    let preHigh = Number.NEGATIVE_INFINITY;
    let preLow = Number.POSITIVE_INFINITY;
    let sufH = Number.NEGATIVE_INFINITY;
    let sufL = Number.POSITIVE_INFINITY;
    // The last block may be partial; it has no next block, so no suffix. (Both computed for every
    // block, so that the last one runs no operation the compiled code has not seen.)
    const len = Math.min(p, n - start);
    const full = len === p;
    const end = start + p - 1;
    for (let j = 0; j < len; j++) {
      const today = start + j;
      const h = high[today];
      const l = low[today];
      const c = close[today];
      acc += h * 0 + l * 0 + c * 0 + +(h * l === 0);
      let f = +(h > preHigh);
      pick[0] = preHigh;
      pick[1] = h;
      preHigh = pick[f];
      f = +(l < preLow);
      pick[2] = preLow;
      pick[3] = l;
      preLow = pick[2 + f];
      if (full) {
        const bh = high[end - j];
        const bl = low[end - j];
        f = +(bh > sufH);
        pick[4] = sufH;
        pick[5] = bh;
        sufH = pick[4 + f];
        f = +(bl < sufL);
        pick[6] = sufL;
        pick[7] = bl;
        sufL = pick[6 + f];
        sufHigh[cur + p - 1 - j] = sufH;
        sufLow[cur + p - 1 - j] = sufL;
      }
      const sh = sufHigh[prev + j + 1];
      const sl = sufLow[prev + j + 1];
      f = +(sh > preHigh);
      pick[8] = preHigh;
      pick[9] = sh;
      const highest = pick[8 + f];
      f = +(sl < preLow);
      pick[10] = preLow;
      pick[11] = sl;
      const lowest = pick[10 + f];
      const x = williams ? highest : c;
      const y = williams ? c : lowest;
      const diff = (highest - lowest) / scale;
      out[today] = diff === 0 ? flat : (x - y) / diff;
    }
  }
  return acc;
}

/**
 * TA-Lib's scan, for candles `[from, to)`, from and back into `state`: O(1) per candle, rescanning
 * the window only when an extreme leaves it, a new extreme taken without a branch.
 * Both outputs are `(x - y) / ((highest - lowest) / scale)` with the operands chosen once per
 * candle by a select of locals, so a Williams %R after a stochastic in the same process (or the
 * reverse) runs the code V8 compiled for the other, with no operation it has not seen.
 */
function rangeScan(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  from: number,
  to: number,
  period: number,
  out: Float64Array,
  williams: boolean,
  state: Float64Array,
): number {
  // Williams: (highest - close) / ((highest - lowest) / -100), -50 when flat;
  // stochastic: (close - lowest) / ((highest - lowest) / 100), 50 when flat.
  const scale = williams ? -100 : 100;
  const flat = williams ? -50 : 50;
  // Two-slot scratch arrays: `pick[+(cond)]` selects without a branch.
  const pickLow = new Float64Array(2);
  const pickHigh = new Float64Array(2);
  let lowest = state[0];
  let highest = state[1];
  let lowestIdx = state[2];
  let highestIdx = state[3];
  let bad = 0;
  let trailing = from - period + 1;
  for (let today = from; today < to; today++, trailing++) {
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
    const x = williams ? highest : c;
    const y = williams ? c : lowest;
    const diff = (highest - lowest) / scale;
    out[today] = diff === 0 ? flat : (x - y) / diff;
  }
  state[0] = lowest;
  state[1] = highest;
  state[2] = lowestIdx;
  state[3] = highestIdx;
  return bad;
}
