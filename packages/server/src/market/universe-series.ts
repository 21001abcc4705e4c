import {
  type Asset,
  type CandleSeries,
  candleOpenTime,
  type MarketData,
  splitSeries,
  TIMEFRAME_MS,
  type Timeframe,
} from '@marketlens/exchanges';
import { stateKey, stateOf } from '../platform/app-state.js';
import type { AppDeps } from '../platform/deps.js';
import { Lru } from '../platform/lru.js';
import { CHART_DEPTH } from '../platform/product-rules.js';
import type { AssetClassFilter } from './assets.js';
import { marketOf, universeOf } from './market.js';

/**
 * Candles of a whole asset class, read once and shared by the screener, the signal list and the
 * insights routes. Depth is the free analysis depth, so a row of the signal list is computed
 * from the same window as `GET /v2/analysis/{asset_id}` at its defaults.
 */
export const UNIVERSE_DEPTH = CHART_DEPTH.free;

/** How long a class's candles serve before they are read again (the live candle moves). */
export const UNIVERSE_SERIES_MS = 60_000;

/** One asset of a class with its closed candles. */
export interface AssetSeries {
  asset: Asset;
  /** The series with only its closed candles (the live one left out: lists are computed on bar close). */
  series: CandleSeries;
}

/** The series of a class at one moment, and the open time of its last (live) candle. */
export interface ClassSeries {
  /** Open time of the candle containing the clock time (ms): part of every cache key built on it. */
  last_open: number;
  /** Open time of the newest closed candle read (ms): what the lists are computed as of. */
  as_of: number;
  /** Assets whose candles could be read, in universe order; the others are left out. */
  assets: AssetSeries[];
}

/** The app's results over a class (see {@link cachedOverClass}). */
const CLASS_RESULTS = stateKey('class results', () => new Lru<Promise<unknown>>(64, UNIVERSE_SERIES_MS));

export function inClassFilter(asset: Asset, filter: AssetClassFilter): boolean {
  return filter === 'all' || asset.asset_class === filter;
}

async function readClass(
  market: MarketData,
  filter: AssetClassFilter,
  timeframe: Timeframe,
  lastOpen: number,
  now: number,
): Promise<ClassSeries> {
  const assets = universeOf(market).assets.filter((a) => inClassFilter(a, filter));
  const read = await Promise.all(
    assets.map(async (asset): Promise<AssetSeries | null> => {
      try {
        const series = await market.candles({ asset_id: asset.id, timeframe, limit: UNIVERSE_DEPTH + 1 });
        const { closed } = splitSeries(series, now, UNIVERSE_DEPTH);
        return closed.time.length > 0 ? { asset, series: { ...series, candles: closed } } : null;
      } catch {
        // An asset the venue cannot serve right now is left out of lists, never a failure.
        return null;
      }
    }),
  );
  const kept = read.filter((x): x is AssetSeries => x !== null);
  let asOf = Number.NEGATIVE_INFINITY;
  for (const { series } of kept) asOf = Math.max(asOf, series.candles.time[series.candles.time.length - 1]);
  if (asOf === Number.NEGATIVE_INFINITY) asOf = lastOpen - TIMEFRAME_MS[timeframe];
  return { last_open: lastOpen, as_of: asOf, assets: kept };
}

/**
 * A result over a class, cached per app and `key` for at most {@link UNIVERSE_SERIES_MS}; the
 * key must name what the result depends on (class, timeframe, last candle open time). Concurrent
 * callers share one computation; a failed one is not remembered.
 */
export function cachedOverClass<V>(deps: AppDeps, key: string, compute: () => Promise<V>): Promise<V> {
  const cache = stateOf(deps, CLASS_RESULTS);
  const now = deps.now();
  const hit = cache.get(key, now) as Promise<V> | undefined;
  if (hit) return hit;
  const value = compute();
  cache.set(key, value, now);
  value.catch(() => {
    if (cache.entry(key, now)?.value === value) cache.delete(key);
  });
  return value;
}

/**
 * The closed candles of every asset of `filter` on `timeframe`, cached per (class, timeframe,
 * live candle open time) for at most {@link UNIVERSE_SERIES_MS}.
 */
export function classSeries(deps: AppDeps, filter: AssetClassFilter, timeframe: Timeframe): Promise<ClassSeries> {
  const now = deps.now();
  const lastOpen = candleOpenTime(timeframe, now);
  return cachedOverClass(deps, `series|${filter}|${timeframe}|${lastOpen}`, () =>
    readClass(marketOf(deps), filter, timeframe, lastOpen, now),
  );
}
