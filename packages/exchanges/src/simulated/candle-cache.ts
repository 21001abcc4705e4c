/**
 * Finished candles of the simulated venue, kept between reads. A finished candle of a series (one
 * market, one timeframe) never changes, yet building it means splitting daily bars into intraday
 * ones, and reads of a series overlap: the same window again, one candle deeper, one candle later.
 * So each series keeps the window of finished candles around its last read and builds only what
 * lies outside it. Candles are kept as served (rounded, basis and volume factor applied) and copied
 * out, so no caller can alter what the next one reads.
 */
import type { Candles } from '@marketlens/core';

/**
 * Builds the finished candles of one series opened in `[from, to)`, the newest `limit` of them
 * (a bucket in which the market did not trade has none), oldest first; `scannedFrom` is the
 * oldest open time looked at, so every bucket opened in `[scannedFrom, to)` is accounted for.
 */
export type CandleScan = (from: number, to: number, limit: number) => { candles: Candles; scannedFrom: number };

/** Options of {@link createCandleCache}. */
export interface CandleCacheOptions {
  /** Open time of the first candle any series can have. */
  start: number;
  /** Most candles kept for one series; reads deeper than this are served, then trimmed. */
  maxPerSeries: number;
  /** Most candles kept over all series; the series read least recently are dropped first. */
  maxCandles: number;
}

/** A bounded cache of finished candles, one window per series. */
export interface CandleCache {
  /**
   * The newest `limit` finished candles of series `key` opened before `before`, oldest first (fewer
   * when the series starts later), followed by those of `after` (the forming candle), in arrays of
   * their own. `scan` builds what the cache lacks; it must give the same candles every time.
   */
  read(key: string, before: number, limit: number, scan: CandleScan, after?: Candles): Candles;
  /** Candles kept, over all series. */
  size(): number;
}

/** A series' window: every bucket opened in `[lo, hi)` was scanned, and `candles` are those it had. */
interface Window {
  lo: number;
  hi: number;
  candles: Candles;
}

const COLUMNS = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;

/** No candles, in arrays of their own. */
export function emptyCandles(): Candles {
  return {
    time: new Float64Array(0),
    open: new Float64Array(0),
    high: new Float64Array(0),
    low: new Float64Array(0),
    close: new Float64Array(0),
    volume: new Float64Array(0),
  };
}

/** Candles `[begin, end)` of `a`, then all of `b`, in new arrays. */
function concat(a: Candles, b: Candles, begin = 0, end = a.time.length): Candles {
  const out = emptyCandles();
  for (const k of COLUMNS) {
    const col = new Float64Array(end - begin + b.time.length);
    col.set(a[k].subarray(begin, end));
    col.set(b[k], end - begin);
    out[k] = col;
  }
  return out;
}

/** How many of the (ascending) open times are before `t`. */
function countBefore(time: Float64Array, t: number): number {
  let lo = 0;
  let hi = time.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Creates an empty {@link CandleCache}. */
export function createCandleCache(options: CandleCacheOptions): CandleCache {
  const { start, maxPerSeries, maxCandles } = options;
  // Insertion order is recency: a series read is moved to the end.
  const windows = new Map<string, Window>();
  let total = 0;

  function read(key: string, before: number, limit: number, scan: CandleScan, after = emptyCandles()): Candles {
    const held = windows.get(key);
    let w: Window = { lo: before, hi: before, candles: emptyCandles() };
    if (held !== undefined) {
      windows.delete(key);
      total -= held.candles.time.length;
      // A window far behind the read (or after it) would cost more to extend than to rebuild.
      if (before >= held.lo && before - held.hi <= held.hi - held.lo) w = held;
    }
    if (before > w.hi) {
      const newer = scan(w.hi, before, Number.POSITIVE_INFINITY);
      w = { lo: w.lo, hi: before, candles: concat(w.candles, newer.candles) };
    }
    let end = countBefore(w.candles.time, before);
    if (end < limit && w.lo > start) {
      const older = scan(start, w.lo, limit - end);
      w = { lo: older.scannedFrom, hi: w.hi, candles: concat(older.candles, w.candles) };
      end += older.candles.time.length;
    }
    const out = concat(w.candles, after, Math.max(0, end - limit), end);
    if (w.candles.time.length > maxPerSeries) {
      // Keep the window around this read: the candles just served and those before them.
      const from = Math.max(0, end - maxPerSeries);
      w = {
        lo: from > 0 ? w.candles.time[from] : w.lo,
        hi: before,
        candles: concat(w.candles, emptyCandles(), from, end),
      };
    }
    windows.set(key, w);
    total += w.candles.time.length;
    for (const [k, old] of windows) {
      if (total <= maxCandles) break;
      windows.delete(k);
      total -= old.candles.time.length;
    }
    return out;
  }

  return { read, size: () => total };
}
