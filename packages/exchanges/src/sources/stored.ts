import type { Candles } from '@marketlens/core';
import type { MarketCalendar } from '../calendar.js';
import { VenueError } from '../errors.js';
import { type CandleRequest, type CandleSeries, candleOpenTime, TIMEFRAME_MS } from '../ports.js';
import { emptyCandles, type RepairReport, repairCandles, repaired, sliceCandles } from './repair.js';
import type { MarketSource } from './source.js';
import { type CandleStore, type SeriesKey, type StoredSeries, seriesBytes } from './store.js';

/** How a source's candles are kept in a {@link CandleStore}. */
export interface StoredCandlesOptions {
  store: CandleStore;
  /** Candles read on first use of a series (the deepest chart depth); default 5 000. */
  backfill?: number;
  /** A stored series younger than this serves without asking upstream; default 30 000 ms. */
  refreshMs?: number;
  /** The clock; default `Date.now`. */
  now?: () => number;
  /** Told about every read: from the store (`hit`), after an upstream read (`miss`), or stale. */
  onRead?: (result: 'hit' | 'miss' | 'stale') => void;
  /** Told when upstream data needed repair (dropped rows) or had gaps. */
  onRepair?: (key: SeriesKey, report: RepairReport) => void;
  /**
   * The calendar of an asset, against which gaps are counted (a stock's weekend is no gap);
   * default: around the clock.
   */
  calendarOf?: (asset_id: string) => MarketCalendar;
  /**
   * Bytes of recently used series kept decoded in memory in front of the store (default 64 MiB):
   * a warm read is then a lookup, not a 240 KB copy out of the store for a 500-candle window.
   */
  memoryBytes?: number;
}

/** Every candle after `from` (exclusive) comes from `fresh`; earlier ones from `stored`. */
function merge(stored: Candles, fresh: Candles): Candles {
  if (fresh.time.length === 0) return stored;
  const first = fresh.time[0];
  let keep = 0;
  while (keep < stored.time.length && stored.time[keep] < first) keep++;
  const out = emptyCandles(keep + fresh.time.length);
  for (const column of ['time', 'open', 'high', 'low', 'close', 'volume'] as const) {
    out[column].set(stored[column].subarray(0, keep), 0);
    out[column].set(fresh[column], keep);
  }
  return out;
}

/** The newest `limit` candles opened before `end` (exclusive; undefined: all). */
function window(candles: Candles, limit: number, end: number | undefined): Candles {
  let to = candles.time.length;
  if (end !== undefined) while (to > 0 && candles.time[to - 1] >= end) to--;
  return sliceCandles(candles, Math.max(0, to - limit), to);
}

/** True when the stored series holds the whole window of `limit` candles before `end`. */
function covers(s: StoredSeries, limit: number, end: number): boolean {
  const w = window(s.candles, limit, end);
  return w.time.length > 0 && (s.complete || w.time.length === limit) && w.time[w.time.length - 1] < end;
}

function idOf(key: SeriesKey): string {
  return `${key.source}\u0000${key.instrument}\u0000${key.timeframe}`;
}

function keyOf(source: string, request: CandleRequest): SeriesKey {
  const instrument = request.pair ?? `${request.asset_id}@${request.market_type ?? 'spot'}`;
  return { source, instrument, timeframe: request.timeframe };
}

/**
 * A source's candles through a store: the first read of a series backfills `backfill` candles,
 * later reads refresh only the still-open candle and those closed since, at most once per
 * `refreshMs`; any number of concurrent reads of one series share one upstream call. Upstream rows
 * are repaired (see `repairCandles`). When the source fails, the stored candles are served with
 * `stale: true`; only when nothing is stored does the failure reach the caller. A read that asks
 * for history before the stored window (`end` in the past, or more candles than stored) goes to
 * upstream directly and is not stored.
 */
export function storedCandles(
  source: MarketSource,
  options: StoredCandlesOptions,
): (request: CandleRequest) => Promise<CandleSeries> {
  const { store } = options;
  const backfill = options.backfill ?? 5_000;
  const refreshMs = options.refreshMs ?? 30_000;
  const now = options.now ?? Date.now;
  const inFlight = new Map<string, Promise<StoredSeries>>();
  const memoryBytes = options.memoryBytes ?? 64 * 1024 * 1024;
  // Least recently used first (a Map iterates in insertion order; a hit is re-inserted).
  const hot = new Map<string, StoredSeries>();
  let hotBytes = 0;
  const remember = (id: string, s: StoredSeries): void => {
    const old = hot.get(id);
    if (old !== undefined) {
      hot.delete(id);
      hotBytes -= seriesBytes(old.candles);
    }
    hot.set(id, s);
    hotBytes += seriesBytes(s.candles);
    for (const [victim, value] of hot) {
      if (hotBytes <= memoryBytes) break;
      hot.delete(victim);
      hotBytes -= seriesBytes(value.candles);
    }
  };
  const read = async (id: string, key: SeriesKey): Promise<StoredSeries | null> => {
    const held = hot.get(id);
    if (held !== undefined) {
      hot.delete(id);
      hot.set(id, held);
      return held;
    }
    const stored = await store.get(key);
    if (stored !== null) remember(id, stored);
    return stored;
  };

  const serve = (key: SeriesKey, s: StoredSeries, request: CandleRequest, stale: boolean): CandleSeries => ({
    asset_id: request.asset_id,
    venue: s.venue,
    pair: s.pair,
    market_type: s.market_type,
    timeframe: key.timeframe,
    candles: window(s.candles, request.limit, request.end),
    source: source.source,
    fetched_at: s.fetched_at,
    stale,
  });

  async function refresh(key: SeriesKey, request: CandleRequest, stored: StoredSeries | null): Promise<StoredSeries> {
    const t = now();
    const step = TIMEFRAME_MS[key.timeframe];
    const last = stored === null ? -1 : stored.candles.time.length - 1;
    const depth = Math.max(backfill, request.limit);
    const deepEnough = stored !== null && (stored.complete || stored.candles.time.length >= depth);
    const since = deepEnough && last >= 0 ? stored.candles.time[last] : null;
    // The candles since the last stored open, that one included (it may have been live): a few, not the backfill.
    const limit =
      since === null ? depth : Math.min(depth, Math.floor((candleOpenTime(key.timeframe, t) - since) / step) + 1);
    const { end: _end, ...live } = request;
    const read = await source.candles({ ...live, limit });
    const calendar = options.calendarOf?.(request.asset_id) ?? 'always';
    const { candles: fresh, report } = repairCandles(read.candles, key.timeframe, calendar);
    if (repaired(report) || report.gaps > 0) options.onRepair?.(key, report);
    const merged = since === null || stored === null ? fresh : merge(stored.candles, fresh);
    const n = merged.time.length;
    // The stored window stays the backfill depth: the oldest candles fall off as new ones close.
    const candles = n > depth ? sliceCandles(merged, n - depth, n) : merged;
    const next: StoredSeries = {
      venue: read.venue,
      pair: read.pair,
      market_type: read.market_type,
      candles,
      fetched_at: t,
      complete: n <= depth && (since === null ? fresh.time.length < limit : (stored?.complete ?? false)),
    };
    await store.put(key, next);
    remember(idOf(key), next);
    return next;
  }

  return async function candles(request: CandleRequest): Promise<CandleSeries> {
    if (!Number.isInteger(request.limit) || request.limit < 1) {
      throw new VenueError('bad_request', `candle limit must be a positive integer, got ${request.limit}`);
    }
    const key = keyOf(source.source, request);
    const id = idOf(key);
    const stored = await read(id, key);
    const t = now();
    if (request.end !== undefined) {
      // A window in the past: the store serves it when it holds all of it, else it is read through.
      if (stored !== null && request.end <= stored.fetched_at && covers(stored, request.limit, request.end)) {
        options.onRead?.('hit');
        return serve(key, stored, request, false);
      }
      return source.candles(request);
    }
    const fresh =
      stored !== null &&
      t - stored.fetched_at < refreshMs &&
      (stored.complete || stored.candles.time.length >= request.limit);
    if (fresh) {
      options.onRead?.('hit');
      return serve(key, stored, request, false);
    }
    let pending = inFlight.get(id);
    if (pending === undefined) {
      pending = refresh(key, request, stored).finally(() => inFlight.delete(id));
      inFlight.set(id, pending);
    }
    try {
      const next = await pending;
      options.onRead?.('miss');
      return serve(key, next, request, false);
    } catch (err) {
      const retryable = !(err instanceof VenueError) || err.retryable;
      if (stored !== null && retryable) {
        options.onRead?.('stale');
        return serve(key, stored, request, true);
      }
      throw err;
    }
  };
}
