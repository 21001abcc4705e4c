import { checkInt, checkNumber } from '../indicators/internal/validate.js';
import type { Candles } from '../types.js';
import { atrColumn, prefixCandles } from './internal.js';

/** A confirmed swing point: a local high or low of the price. */
export interface Swing {
  /** `'high'`: a swing high (its price is the candle's high); `'low'`: a swing low (the candle's low). */
  kind: 'high' | 'low';
  /** Index of the candle that made the extreme. */
  index: number;
  /** Open time of that candle (ms UTC). */
  time: number;
  /** The extreme price. */
  price: number;
  /**
   * Index of the candle on whose close the swing became known. Anything "as of" an index `i`
   * only sees swings with `confirmed_index <= i`.
   */
  confirmed_index: number;
}

/** Options of {@link findSwings}. */
export interface SwingOptions {
  /** Candles on the left of the extreme that it must exceed strictly. Default 2 (Williams). */
  left?: number;
  /** Candles on the right of the extreme that it must equal or exceed. Default 2 (Williams). */
  right?: number;
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
}

/** Options of {@link zigzag}. */
export interface ZigzagOptions {
  /** ATR period of the reversal threshold. Default 14. Ignored when `atr` is given. */
  atrPeriod?: number;
  /** A reversal needs a move of `atrMultiple * ATR` from the running extreme. Default 2. */
  atrMultiple?: number;
  /** A precomputed ATR column aligned with the candles (saves a pass when the caller has it). */
  atr?: ArrayLike<number>;
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
}

/**
 * Williams fractals on candles `start..end`, pushed onto `out` in index order.
 * Bar `i` is a swing high when `high[i] > high[i-k]` for `k = 1..left` and `high[i] >= high[i+k]`
 * for `k = 1..right` (lows mirrored); it is confirmed at `i + right`.
 * @internal
 */
export function fractalsInto(
  candles: Candles,
  start: number,
  end: number,
  left: number,
  right: number,
  out: Swing[],
): void {
  const { high, low, time } = candles;
  for (let i = start + left; i + right <= end; i++) {
    const h = high[i];
    const l = low[i];
    let isHigh = true;
    let isLow = true;
    for (let k = 1; k <= left && (isHigh || isLow); k++) {
      if (!(h > high[i - k])) isHigh = false;
      if (!(l < low[i - k])) isLow = false;
    }
    for (let k = 1; k <= right && (isHigh || isLow); k++) {
      if (!(h >= high[i + k])) isHigh = false;
      if (!(l <= low[i + k])) isLow = false;
    }
    if (isHigh) out.push({ kind: 'high', index: i, time: time[i], price: h, confirmed_index: i + right });
    if (isLow) out.push({ kind: 'low', index: i, time: time[i], price: l, confirmed_index: i + right });
  }
}

/**
 * The ATR-scaled zigzag on candles `start..end`, pushed onto `out` in index order (pivots
 * alternate between highs and lows). See {@link zigzag} for the rules.
 * @internal
 */
export function zigzagInto(
  candles: Candles,
  atrCol: ArrayLike<number>,
  multiple: number,
  start: number,
  end: number,
  out: Swing[],
): void {
  const { high, low, time } = candles;
  // dir 0: no pivot yet (both extremes tracked); 1: up leg (tracking the high); -1: down leg.
  let dir = 0;
  let hiP = high[start];
  let hiI = start;
  let loP = low[start];
  let loI = start;
  for (let i = start + 1; i <= end; i++) {
    const thr = multiple * atrCol[i]; // NaN during the ATR warm-up: no comparison holds
    const h = high[i];
    const l = low[i];
    if (dir === 1) {
      if (h > hiP) {
        hiP = h;
        hiI = i;
      } else if (l <= hiP - thr) {
        out.push({ kind: 'high', index: hiI, time: time[hiI], price: hiP, confirmed_index: i });
        dir = -1;
        loP = l;
        loI = i;
      }
    } else if (dir === -1) {
      if (l < loP) {
        loP = l;
        loI = i;
      } else if (h >= loP + thr) {
        out.push({ kind: 'low', index: loI, time: time[loI], price: loP, confirmed_index: i });
        dir = 1;
        hiP = h;
        hiI = i;
      }
    } else {
      if (h > hiP) {
        hiP = h;
        hiI = i;
      }
      if (l < loP) {
        loP = l;
        loI = i;
      }
      if (hiP - loP >= thr) {
        // The older extreme is the first pivot; an outside bar holding both waits.
        if (loI < hiI) {
          out.push({ kind: 'low', index: loI, time: time[loI], price: loP, confirmed_index: i });
          dir = 1;
        } else if (hiI < loI) {
          out.push({ kind: 'high', index: hiI, time: time[hiI], price: hiP, confirmed_index: i });
          dir = -1;
        }
      }
    }
  }
}

/**
 * Swing highs and lows by Williams fractals (Bill Williams, "Trading Chaos", 1995).
 *
 * Candle `i` is a swing high when its high is strictly above the highs of the `left` candles
 * before it and at or above the highs of the `right` candles after it; a swing low mirrors that
 * with lows. The strict/non-strict split keeps exactly one swing on a flat top (its first candle),
 * where Williams' all-strict rule keeps none. A swing is confirmed `right` candles later, so the
 * result as of index `i` holds only swings with `index <= i - right`. Defaults: left 2, right 2
 * (the five-bar fractal). Sorted by index (a candle can be both a swing high and a swing low).
 */
export function findSwings(candles: Candles, options?: SwingOptions): Swing[] {
  const left = checkInt('left', options?.left ?? 2, 1, 1000);
  const right = checkInt('right', options?.right ?? 2, 1, 1000);
  const { view, end } = prefixCandles(candles, options?.asOf);
  const out: Swing[] = [];
  fractalsInto(view, 0, end, left, right, out);
  return out;
}

/**
 * Swing highs and lows by an ATR-scaled zigzag: a swing is confirmed when the price reverses from
 * its running extreme by `atrMultiple * ATR(atrPeriod)` (the ATR of the confirming candle, Wilder,
 * TA-Lib `ATR`). Pivots alternate high, low, high, ...
 *
 * Rules, per candle `i` (all symmetric between highs and lows): in an up leg, a higher high extends
 * the leg (that candle cannot also reverse it, as the order of its high and low is unknown);
 * otherwise a low at or below `extreme - threshold` confirms the swing high at the extreme and
 * starts a down leg from this candle's low. Before the first pivot both extremes are tracked and the
 * older one becomes the first pivot once `high - low >= threshold`. The last, unconfirmed leg is not
 * returned. Nothing is found during the ATR warm-up. Defaults: atrPeriod 14, atrMultiple 2.
 */
export function zigzag(candles: Candles, options?: ZigzagOptions): Swing[] {
  const period = checkInt('atrPeriod', options?.atrPeriod ?? 14, 1);
  const multiple = checkNumber('atrMultiple', options?.atrMultiple ?? 2, Number.MIN_VALUE, 1000);
  const { view, end } = prefixCandles(candles, options?.asOf);
  const atrCol = atrColumn(view, candles.close.length, period, options?.atr);
  const out: Swing[] = [];
  zigzagInto(view, atrCol, multiple, 0, end, out);
  return out;
}
