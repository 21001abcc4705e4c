import type { Candles } from '@marketlens/core';
import type { MarketType, Timeframe } from '../ports.js';

/**
 * Names one stored series: a source, what was asked of it (`instrument`: a venue pair, or an
 * asset's default market of a type, `bitcoin@spot`), and a timeframe.
 */
export interface SeriesKey {
  source: string;
  instrument: string;
  timeframe: Timeframe;
}

/** A stored series with what served it. */
export interface StoredSeries {
  venue: string;
  pair: string;
  market_type: MarketType;
  /** Oldest first. */
  candles: Candles;
  /** When the newest rows were read from upstream (ms UTC). */
  fetched_at: number;
  /** True when upstream had no older history than the first row (a backfill need not be repeated). */
  complete: boolean;
}

/**
 * Where candles persist between requests and restarts: the server keeps them in its storage, the
 * CLI and tests in memory. Implementations bound their size (least recently used series first).
 */
export interface CandleStore {
  /** The stored series, or null. Marks it used. */
  get(key: SeriesKey): Promise<StoredSeries | null>;
  /** Replaces the stored series. */
  put(key: SeriesKey, series: StoredSeries): Promise<void>;
}

/** The bytes a series takes stored as six Float64 columns. */
export function seriesBytes(candles: Candles): number {
  return candles.time.length * 48;
}

/** A {@link CandleStore} in memory, bounded by `maxBytes` (default 64 MiB), least recently used evicted. */
export function createMemoryCandleStore(maxBytes = 64 * 1024 * 1024): CandleStore & { readonly bytes: number } {
  // A Map iterates in insertion order: re-inserting on use makes its first key the least recently used.
  const entries = new Map<string, StoredSeries>();
  let bytes = 0;
  const id = (k: SeriesKey) => `${k.source}\u0000${k.instrument}\u0000${k.timeframe}`;
  return {
    get bytes() {
      return bytes;
    },
    async get(key) {
      const k = id(key);
      const hit = entries.get(k);
      if (hit === undefined) return null;
      entries.delete(k);
      entries.set(k, hit);
      return hit;
    },
    async put(key, series) {
      const k = id(key);
      const old = entries.get(k);
      if (old !== undefined) {
        bytes -= seriesBytes(old.candles);
        entries.delete(k);
      }
      entries.set(k, series);
      bytes += seriesBytes(series.candles);
      for (const [victim, value] of entries) {
        if (bytes <= maxBytes || victim === k) break;
        entries.delete(victim);
        bytes -= seriesBytes(value.candles);
      }
    },
  };
}
