import type { Candles } from '../types.js';

/** The 52-week span of `rangeExtremes`: 364 days, 52 whole weeks (ms). */
export const WEEKS_52_MS = 364 * 86_400_000;

/** The extremes of the whole stored history as of one candle. */
export interface RangeExtremes {
  /** Highest high of candles `0..as_of` (the whole history read, not the levels' window). */
  all_time_high: number;
  /** Open time of the candle that made it (ms UTC; the first such candle). */
  all_time_high_time: number;
  /** Lowest low of candles `0..as_of`. */
  all_time_low: number;
  /** Open time of the candle that made it (ms UTC; the first such candle). */
  all_time_low_time: number;
  /** Highest high of the candles that opened within 52 weeks (364 days) of the as-of candle's open. */
  high_52w: number;
  /** Lowest low of the same candles. */
  low_52w: number;
  /** Candles read: the length of the history behind the extremes. */
  candles: number;
}

/** The extremes of the candles before the as-of one, with where they were made (NaN, -1 when none). @internal */
export interface PriorExtremes {
  high: number;
  highIndex: number;
  low: number;
  lowIndex: number;
  high52: number;
  high52Index: number;
  low52: number;
  low52Index: number;
}

/**
 * One pass over candles `0..end`: the all-time and 52-week extremes (reported) and the same
 * extremes of the candles before `end` (the levels: an extreme the as-of candle itself makes is
 * where the price is, not a level yet). Non-finite prices are skipped (comparisons with NaN fail).
 * @internal
 */
export function scanRange(candles: Candles, end: number): { range: RangeExtremes; prior: PriorExtremes } {
  const { high, low, time } = candles;
  const since = time[end] - WEEKS_52_MS;
  const q: PriorExtremes = {
    high: Number.NaN,
    highIndex: -1,
    low: Number.NaN,
    lowIndex: -1,
    high52: Number.NaN,
    high52Index: -1,
    low52: Number.NaN,
    low52Index: -1,
  };
  for (let i = 0; i < end; i++) {
    const h = high[i];
    const l = low[i];
    if (h > q.high || q.highIndex < 0) {
      q.high = h;
      q.highIndex = i;
    }
    if (l < q.low || q.lowIndex < 0) {
      q.low = l;
      q.lowIndex = i;
    }
    if (time[i] > since) {
      if (h > q.high52 || q.high52Index < 0) {
        q.high52 = h;
        q.high52Index = i;
      }
      if (l < q.low52 || q.low52Index < 0) {
        q.low52 = l;
        q.low52Index = i;
      }
    }
  }
  const h = high[end];
  const l = low[end];
  const upAth = !(q.high >= h);
  const downAtl = !(q.low <= l);
  const range: RangeExtremes = {
    all_time_high: upAth ? h : q.high,
    all_time_high_time: time[upAth ? end : q.highIndex],
    all_time_low: downAtl ? l : q.low,
    all_time_low_time: time[downAtl ? end : q.lowIndex],
    high_52w: q.high52Index < 0 || !(q.high52 >= h) ? h : q.high52,
    low_52w: q.low52Index < 0 || !(q.low52 <= l) ? l : q.low52,
    candles: end + 1,
  };
  return { range, prior: q };
}
