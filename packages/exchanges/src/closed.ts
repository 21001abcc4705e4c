import type { Candles } from '@marketlens/core';
import { type CandleSeries, TIMEFRAME_MS, type Timeframe } from './ports.js';

/** The candle still forming at the clock time: its open time and its last price. */
export interface LiveCandle {
  /** Open time (ms UTC). */
  time: number;
  /** Its close so far: the live mark. */
  price: number;
}

/** A venue's candles split at the clock: the closed ones, and the one still forming if any. */
export interface ClosedSplit {
  /** Candles whose period has ended (`time + timeframe <= now`), oldest first, at most `keep`. */
  closed: Candles;
  /** The last candle when it is still open at `now`, else null (a closed session, a stale source). */
  live: LiveCandle | null;
}

function view(c: Candles, from: number, to: number): Candles {
  return {
    time: c.time.subarray(from, to),
    open: c.open.subarray(from, to),
    high: c.high.subarray(from, to),
    low: c.low.subarray(from, to),
    close: c.close.subarray(from, to),
    volume: c.volume.subarray(from, to),
  };
}

/**
 * Splits candles at `now` into the closed ones (the newest `keep` of them) and the live one.
 * Signals, levels, plans and screeners read only closed candles ("on bar close"), so what they
 * publish stays fixed for the life of a candle; the live candle gives the mark that distances
 * and alerts use. A candle is closed when its whole period has passed: `time + timeframe <= now`.
 * The arrays are views of the input (no copy).
 */
export function splitClosed(
  candles: Candles,
  timeframe: Timeframe,
  now: number,
  keep = Number.POSITIVE_INFINITY,
): ClosedSplit {
  const n = candles.time.length;
  const step = TIMEFRAME_MS[timeframe];
  let end = n;
  while (end > 0 && candles.time[end - 1] + step > now) end--;
  const live = end < n ? { time: candles.time[n - 1], price: candles.close[n - 1] } : null;
  return { closed: view(candles, Math.max(0, end - keep), end), live };
}

/**
 * {@link splitClosed} for a series as a source served it: the clock is `now`, or the time up to
 * which the source has seen the market when that is earlier (`seen_until`, set by a folder of files
 * that stops before today). So a week folded from a daily file that ends on a Monday is the live
 * candle, never a closed one-day week; an `h4` candle with one of its four hours is live.
 */
export function splitSeries(series: CandleSeries, now: number, keep = Number.POSITIVE_INFINITY): ClosedSplit {
  const clock = series.seen_until === undefined ? now : Math.min(now, series.seen_until);
  return splitClosed(series.candles, series.timeframe, clock, keep);
}
