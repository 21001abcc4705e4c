import type { Candles } from '@marketlens/core';
import { countGaps, type MarketCalendar } from '../calendar.js';
import { candleOpenTime, TIMEFRAME_MS, type Timeframe } from '../ports.js';

/** What {@link repairCandles} did to a series: every row it dropped or moved, by reason. */
export interface RepairReport {
  /** Rows received. */
  received: number;
  /** Rows with a non-finite or non-positive price, a negative or non-finite volume, or high < low. */
  invalid: number;
  /** Rows whose open time was already seen (the last one read wins). */
  duplicates: number;
  /** Rows not on the timeframe's grid (their open time is not a candle open). */
  misaligned: number;
  /** True when the rows were not oldest first (they are sorted). */
  reordered: boolean;
  /**
   * Missing candles between the first and the last row, counted against the market's calendar
   * (a weekend or a night is no gap; see `countGaps`). Left as gaps: data is never invented.
   */
  gaps: number;
}

/** True when the report records any repair (a gap alone is not a repair: markets close). */
export function repaired(report: RepairReport): boolean {
  return report.invalid > 0 || report.duplicates > 0 || report.misaligned > 0 || report.reordered;
}

/** An empty series. */
export function emptyCandles(n = 0): Candles {
  return {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
}

/** One candle as a record. */
export interface CandleRow {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** Records as struct-of-arrays candles, in the order given. */
export function candlesOf(rows: readonly CandleRow[]): Candles {
  const n = rows.length;
  const c = emptyCandles(n);
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    c.time[i] = r.time;
    c.open[i] = r.open;
    c.high[i] = r.high;
    c.low[i] = r.low;
    c.close[i] = r.close;
    c.volume[i] = r.volume;
  }
  return c;
}

function validRow(c: Candles, i: number): boolean {
  const o = c.open[i];
  const h = c.high[i];
  const l = c.low[i];
  const cl = c.close[i];
  const v = c.volume[i];
  if (!Number.isFinite(c.time[i])) return false;
  if (!(o > 0 && h > 0 && l > 0 && cl > 0)) return false; // also false for NaN
  if (!Number.isFinite(o + h + l + cl)) return false;
  if (!(v >= 0) || !Number.isFinite(v)) return false;
  // The bar must contain its open and close; a high below the low is no candle.
  return h >= l && h >= Math.max(o, cl) && l <= Math.min(o, cl);
}

/**
 * Repairs a series read from an upstream source so that analysis can trust it: rows with a
 * non-positive, NaN or infinite price, a bad volume, or a high below the low (or not containing
 * open and close) are dropped; duplicate open times keep the last row read; rows are sorted oldest
 * first; with a `timeframe`, rows whose open time is not on its grid are dropped. Gaps are counted
 * against the market's `calendar` (default around the clock), not filled: inventing candles would
 * change every indicator. Returns the input unchanged (same object) when nothing needed repair.
 */
export function repairCandles(
  candles: Candles,
  timeframe?: Timeframe,
  calendar: MarketCalendar = 'always',
): { candles: Candles; report: RepairReport } {
  const n = candles.time.length;
  const report: RepairReport = { received: n, invalid: 0, duplicates: 0, misaligned: 0, reordered: false, gaps: 0 };
  let clean = true;
  let previous = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = candles.time[i];
    if (!validRow(candles, i) || (timeframe !== undefined && candleOpenTime(timeframe, t) !== t) || t <= previous) {
      clean = false;
      break;
    }
    previous = t;
  }
  if (clean) {
    report.gaps = gapsOf(candles.time, timeframe, calendar);
    return { candles, report };
  }
  const byTime = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if (!validRow(candles, i)) {
      report.invalid++;
      continue;
    }
    const t = candles.time[i];
    if (timeframe !== undefined && candleOpenTime(timeframe, t) !== t) {
      report.misaligned++;
      continue;
    }
    if (byTime.has(t)) report.duplicates++;
    byTime.set(t, i);
  }
  const kept = [...byTime.entries()];
  for (let k = 1; k < kept.length; k++) {
    if (kept[k][0] < kept[k - 1][0]) {
      report.reordered = true;
      break;
    }
  }
  kept.sort((a, b) => a[0] - b[0]);
  const out = emptyCandles(kept.length);
  for (let k = 0; k < kept.length; k++) {
    const i = kept[k][1];
    out.time[k] = candles.time[i];
    out.open[k] = candles.open[i];
    out.high[k] = candles.high[i];
    out.low[k] = candles.low[i];
    out.close[k] = candles.close[i];
    out.volume[k] = candles.volume[i];
  }
  report.gaps = gapsOf(out.time, timeframe, calendar);
  return { candles: out, report };
}

function gapsOf(time: Float64Array, timeframe: Timeframe | undefined, calendar: MarketCalendar): number {
  // Every timeframe's grid has a constant step (w1 is offset, not uneven).
  return timeframe === undefined ? 0 : countGaps(time, TIMEFRAME_MS[timeframe], calendar);
}

/** Candles `[from, to)` of a series, as views (no copy). */
export function sliceCandles(c: Candles, from: number, to: number): Candles {
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
 * Folds candles onto a longer timeframe (`m5` into `h1`): open of the first, high and low over the
 * bucket, close of the last, volumes summed. The first bucket is dropped when the series starts
 * after its open, since its open would be wrong (a later bucket that starts late is a market that
 * opened late, a stock's day at its session open).
 */
export function foldCandles(c: Candles, timeframe: Timeframe): Candles {
  const n = c.time.length;
  const out = emptyCandles(n);
  let k = -1;
  let skip: number | null = null;
  for (let i = 0; i < n; i++) {
    const bucket = candleOpenTime(timeframe, c.time[i]);
    if (bucket === skip) continue;
    if (k >= 0 && out.time[k] === bucket) {
      if (c.high[i] > out.high[k]) out.high[k] = c.high[i];
      if (c.low[i] < out.low[k]) out.low[k] = c.low[i];
      out.close[k] = c.close[i];
      out.volume[k] += c.volume[i];
      continue;
    }
    // Only the first bucket can miss its start for want of data; a later one opens when its market does.
    if (i === 0 && c.time[i] !== bucket) {
      skip = bucket;
      continue;
    }
    k++;
    out.time[k] = bucket;
    out.open[k] = c.open[i];
    out.high[k] = c.high[i];
    out.low[k] = c.low[i];
    out.close[k] = c.close[i];
    out.volume[k] = c.volume[i];
  }
  return sliceCandles(out, 0, k + 1);
}
