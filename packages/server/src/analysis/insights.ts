import { BREADTH_SMA, FEAR_GREED_LIMIT, FEAR_GREED_SORTS, INSIGHT_TOP } from '@marketlens/contract';
import { type Candles, computeContext, type FearGreedZone, fearGreed, InputError } from '@marketlens/core';
import type { Asset } from '@marketlens/exchanges';
import { type AssetRef, assetRef } from '../market/assets.js';
import { fundingWire } from '../market/exchanges.js';
import { iso, marketOf, primaryQuote, universeOf, venueSnapshot } from '../market/market.js';
import type { MarketQuote, VenueSnapshot } from '../market/quotes.js';
import { cachedOverClass, classSeries } from '../market/universe-series.js';
import type { AppDeps } from '../platform/deps.js';
import { fundingRateOf } from './screener.js';

export { BREADTH_SMA, FEAR_GREED_LIMIT, FEAR_GREED_SORTS, INSIGHT_TOP };
export type FearGreedSort = (typeof FEAR_GREED_SORTS)[number];

const volumeOf = (q: MarketQuote | null) => q?.ticker.quote_volume_usd ?? null;

/** Sorts by a nullable number in `dir`, missing values last, ties by asset id. */
function byValue<T extends { asset: AssetRef }>(
  value: (x: T) => number | null,
  dir: 'asc' | 'desc',
): (a: T, b: T) => number {
  const sign = dir === 'asc' ? 1 : -1;
  return (a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? a.asset.id.localeCompare(b.asset.id) : x === null ? 1 : -1;
    return sign * (x - y) || a.asset.id.localeCompare(b.asset.id);
  };
}

/** Share of assets whose last close is above the mean of their last {@link BREADTH_SMA} closes. */
export function aboveAverage(closes: ArrayLike<number>, period = BREADTH_SMA): boolean | null {
  const n = closes.length;
  if (n < period) return null;
  let sum = 0;
  for (let i = n - period; i < n; i++) sum += closes[i] ?? Number.NaN;
  const last = closes[n - 1] ?? Number.NaN;
  const mean = sum / period;
  return Number.isFinite(mean) && Number.isFinite(last) ? last > mean : null;
}

const share = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/**
 * `GET /v2/insights`: live prices of the top coins, their perpetual funding, and market breadth
 * over the coins (stablecoins left out): share above the 50-day average, advancers/decliners on 24h.
 */
export async function insightsOf(deps: AppDeps) {
  const snapshot = await venueSnapshot(deps);
  const daily = await classSeries(deps, 'coins', 'd1');
  const coins = universeOf(marketOf(deps)).assets.filter((a) => a.asset_class === 'coins' && !a.is_stablecoin);
  const quoted = coins.map((asset) => ({
    asset: assetRef(asset),
    quote: primaryQuote(snapshot.byAsset.get(asset.id)),
  }));

  const prices = quoted
    .filter((x) => x.quote !== null)
    .sort(byValue((x) => volumeOf(x.quote), 'desc'))
    .slice(0, INSIGHT_TOP)
    .map(({ asset, quote }) => ({
      asset,
      price: quote?.ticker.last ?? null,
      change_1h_pct: quote?.ticker.change_1h_pct ?? null,
      change_24h_pct: quote?.ticker.change_24h_pct ?? null,
      change_7d_pct: quote?.ticker.change_7d_pct ?? null,
      volume_24h_usd: volumeOf(quote),
      market_type: quote?.market.market_type ?? null,
      pair: quote?.market.pair ?? null,
    }));

  const perps = coins.flatMap((asset) => {
    const q = (snapshot.byAsset.get(asset.id) ?? []).find((x) => x.market.market_type === 'derivatives' && x.funding);
    return q ? [{ asset: assetRef(asset), quote: q }] : [];
  });
  const rates = perps.map((p) => p.quote.funding?.rate ?? 0);
  const funding = {
    markets: perps.length,
    positive: rates.filter((r) => r > 0).length,
    negative: rates.filter((r) => r < 0).length,
    average_rate: rates.length > 0 ? rates.reduce((s, r) => s + r, 0) / rates.length : null,
    top: perps
      .sort(byValue((p) => volumeOf(p.quote), 'desc'))
      .slice(0, INSIGHT_TOP)
      .map(({ asset, quote }) => ({
        asset,
        pair: quote.market.pair,
        settle: quote.market.settle,
        volume_24h_usd: volumeOf(quote),
        ...fundingWire(quote.funding),
      })),
  };

  const changes = quoted.map((x) => x.quote?.ticker.change_24h_pct ?? null).filter((c): c is number => c !== null);
  const tracked = new Set(coins.map((a) => a.id));
  const trend = daily.assets
    .filter((a) => tracked.has(a.asset.id))
    .map((a) => aboveAverage(a.series.candles.close))
    .filter((x): x is boolean => x !== null);
  const above = trend.filter(Boolean).length;
  const advancers = changes.filter((c) => c > 0).length;
  const decliners = changes.filter((c) => c < 0).length;
  return {
    venue: snapshot.venue,
    as_of: iso(snapshot.at),
    prices,
    funding,
    breadth: {
      asset_class: 'coins' as const,
      as_of: iso(daily.as_of),
      sma_period: BREADTH_SMA,
      assets: trend.length,
      above_sma: above,
      below_sma: trend.length - above,
      above_sma_share: share(above, trend.length),
      advancers,
      decliners,
      unchanged: changes.length - advancers - decliners,
      advancers_share: share(advancers, changes.length),
    },
  };
}

/** One row of the Fear & Greed list. */
export interface FearGreedRow {
  asset: AssetRef;
  is_stablecoin: boolean;
  score: number | null;
  zone: FearGreedZone | null;
  price: number | null;
  change_24h_pct: number | null;
  volume_24h_usd: number | null;
  funding_rate: number | null;
}

function fearGreedRows(deps: AppDeps): Promise<{ as_of: number; rows: FearGreedRow[] }> {
  return classSeries(deps, 'coins', 'd1').then((cls) =>
    cachedOverClass(deps, `fear_greed|${cls.last_open}`, async () => {
      const snapshot = await venueSnapshot(deps);
      const rows: FearGreedRow[] = [];
      for (const { asset, series } of cls.assets) rows.push(fearGreedRow(asset, series.candles, snapshot));
      return { as_of: cls.as_of, rows };
    }),
  );
}

function fearGreedRow(asset: Asset, candles: Candles, snapshot: VenueSnapshot): FearGreedRow {
  const funding = fundingRateOf(snapshot, asset.id);
  let score: number | null = null;
  let zone: FearGreedZone | null = null;
  try {
    const fg = fearGreed(computeContext(candles), { funding });
    score = fg.score;
    zone = fg.zone;
  } catch (err) {
    // Candles the engine refuses give a row without a score.
    if (!(err instanceof InputError)) throw err;
  }
  const q = primaryQuote(snapshot.byAsset.get(asset.id));
  return {
    asset: assetRef(asset),
    is_stablecoin: asset.is_stablecoin,
    score,
    zone,
    price: q?.ticker.last ?? null,
    change_24h_pct: q?.ticker.change_24h_pct ?? null,
    volume_24h_usd: volumeOf(q),
    funding_rate: funding,
  };
}

export interface FearGreedQuery {
  zone?: FearGreedZone;
  /** Smallest 24h USD volume; rows without a volume are left out when given. */
  min_volume?: number;
  exclude_stables: boolean;
  sort: FearGreedSort;
  sort_dir: 'asc' | 'desc';
  /** Clamped to {@link FEAR_GREED_LIMIT}.max. */
  limit: number;
}

const FG_SORT: Record<FearGreedSort, (r: FearGreedRow) => number | null> = {
  score: (r) => r.score,
  volume: (r) => r.volume_24h_usd,
  change_24h: (r) => r.change_24h_pct,
};

/** `GET /v2/insights/fear_greed`: coins by Fear & Greed (d1, funding from the perpetual), filtered and sorted. */
export async function fearGreedListOf(deps: AppDeps, q: FearGreedQuery) {
  const { as_of, rows } = await fearGreedRows(deps);
  const { min_volume } = q;
  const kept = rows
    .filter((r) => !(q.exclude_stables && r.is_stablecoin))
    .filter((r) => q.zone === undefined || r.zone === q.zone)
    .filter((r) => min_volume === undefined || (r.volume_24h_usd !== null && r.volume_24h_usd >= min_volume))
    .sort(byValue(FG_SORT[q.sort], q.sort_dir));
  const limit = Math.min(q.limit, FEAR_GREED_LIMIT.max);
  return {
    timeframe: 'd1' as const,
    as_of: iso(as_of),
    total: kept.length,
    limit,
    assets: kept.slice(0, limit),
  };
}
