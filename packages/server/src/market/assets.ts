import type { Asset, AssetClass, MarketData } from '@marketlens/exchanges';
import type { AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { marketOf, primaryQuote, universeOf, venueSnapshot } from './market.js';
import type { VenueSnapshot } from './quotes.js';

/** The asset block of responses (an analysis, a screener row, an insight, a market list). */
export interface AssetRef {
  id: string;
  symbol: string;
  name: string;
  icon: string;
  asset_class: Asset['asset_class'];
}

/**
 * The asset an input names on `market` (default: the configured one): an id (`bitcoin`), a ticker
 * (`BTC`, `AAPL`) or a pair (`EURUSD`, `BTC/USDT`), see `Universe.find`. 400 `UnknownAsset` when it
 * names none, 400 `AmbiguousAsset` listing the candidate ids when it names several.
 */
export function requireAsset(deps: AppDeps, input: string, market: MarketData = marketOf(deps)): Asset {
  const found = universeOf(market).find(input);
  if (found.length === 1) return found[0];
  if (found.length === 0) {
    throw new AppError('UnknownAsset', `Unknown asset '${input}' (an id such as bitcoin, a ticker such as BTC)`);
  }
  const list = found.map((a) => `${a.id} (${a.symbol}, ${a.asset_class})`).join(', ');
  throw new AppError('AmbiguousAsset', `'${input}' names ${found.length} assets: ${list}; use one of their ids`);
}

/** The asset block of `a` (see {@link AssetRef}). */
export function assetRef(a: Asset): AssetRef {
  return { id: a.id, symbol: a.symbol, name: a.name, icon: a.icon, asset_class: a.asset_class };
}

/** `asset_class` filter values: one class, or `all` (every class, on-chain included). */
export const ASSET_CLASS_FILTERS = ['coins', 'stocks', 'fx', 'all'] as const;
export type AssetClassFilter = (typeof ASSET_CLASS_FILTERS)[number];

/** Sort keys of asset lists; rows without the value come last whatever the direction. */
export const ASSET_SORTS = ['volume', 'price', 'change_1h', 'change_24h', 'change_7d', 'name'] as const;
export type AssetSort = (typeof ASSET_SORTS)[number];

export interface AssetListQuery {
  asset_class: AssetClassFilter;
  sort: AssetSort;
  sort_dir: 'asc' | 'desc';
  limit: number;
}

/** One row of an asset list: the record, its price and the 1h/24h/7d change columns. */
export interface AssetRow {
  id: string;
  symbol: string;
  name: string;
  icon: string;
  asset_class: AssetClass;
  is_stablecoin: boolean;
  /** Last price on the market the row is priced from; null when the venue lists the asset nowhere. */
  price: number | null;
  change_1h_pct: number | null;
  change_24h_pct: number | null;
  change_7d_pct: number | null;
  volume_24h_usd: number | null;
  /** The market priced from: spot, else derivatives (stocks and fx without a spot listing). */
  market_type: 'spot' | 'derivatives' | null;
  pair: string | null;
  venue: string | null;
}

function rowOf(asset: Asset, snapshot: VenueSnapshot): AssetRow {
  const q = primaryQuote(snapshot.byAsset.get(asset.id));
  return {
    id: asset.id,
    symbol: asset.symbol,
    name: asset.name,
    icon: asset.icon,
    asset_class: asset.asset_class,
    is_stablecoin: asset.is_stablecoin,
    price: q?.ticker.last ?? null,
    change_1h_pct: q?.ticker.change_1h_pct ?? null,
    change_24h_pct: q?.ticker.change_24h_pct ?? null,
    change_7d_pct: q?.ticker.change_7d_pct ?? null,
    volume_24h_usd: q?.ticker.quote_volume_usd ?? null,
    market_type: q?.market.market_type ?? null,
    pair: q?.market.pair ?? null,
    venue: q ? snapshot.venue : null,
  };
}

const SORT_VALUE: Record<Exclude<AssetSort, 'name'>, (r: AssetRow) => number | null> = {
  volume: (r) => r.volume_24h_usd,
  price: (r) => r.price,
  change_1h: (r) => r.change_1h_pct,
  change_24h: (r) => r.change_24h_pct,
  change_7d: (r) => r.change_7d_pct,
};

/** Code-unit order of ids: locale-independent, so ties break the same way everywhere. */
function byId(a: AssetRow, b: AssetRow): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Sorts rows in place: by the key in `dir`, missing values last, ties by id (a stable page order). */
export function sortRows(rows: AssetRow[], sort: AssetSort, dir: 'asc' | 'desc'): AssetRow[] {
  const sign = dir === 'asc' ? 1 : -1;
  if (sort === 'name') {
    return rows.sort((a, b) => sign * a.name.localeCompare(b.name, 'en') || byId(a, b));
  }
  const value = SORT_VALUE[sort];
  return rows.sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? byId(a, b) : x === null ? 1 : -1;
    return sign * (x - y) || byId(a, b);
  });
}

function inClass(asset: Asset, filter: AssetClassFilter): boolean {
  return filter === 'all' || asset.asset_class === filter;
}

/** `GET /v2/assets/`: the assets of a class, priced, sorted, at most `limit`. */
export async function listAssets(deps: AppDeps, q: AssetListQuery): Promise<AssetRow[]> {
  const snapshot = await venueSnapshot(deps);
  const rows = universeOf(marketOf(deps))
    .assets.filter((a) => inClass(a, q.asset_class))
    .map((a) => rowOf(a, snapshot));
  return sortRows(rows, q.sort, q.sort_dir).slice(0, q.limit);
}

/** `GET /v2/assets/popular`: the assets most users favorite, most first, with the count. */
export async function popularAssets(deps: AppDeps, limit: number): Promise<(AssetRow & { favorites: number })[]> {
  const universe = universeOf(marketOf(deps));
  const counts = await deps.storage.favorites.popular(limit + 50);
  const snapshot = await venueSnapshot(deps);
  const out: (AssetRow & { favorites: number })[] = [];
  for (const { asset_id, count } of counts) {
    const asset = universe.get(asset_id);
    // Favorites of assets no longer tracked are kept in storage but not listed.
    if (asset) out.push({ ...rowOf(asset, snapshot), favorites: count });
    if (out.length >= limit) break;
  }
  return out;
}

/** The caller's favorites as asset rows, filtered and sorted like `GET /v2/assets/`. */
export async function favoriteAssets(deps: AppDeps, userId: string, q: AssetListQuery): Promise<AssetRow[]> {
  const universe = universeOf(marketOf(deps));
  const ids = await deps.storage.favorites.list(userId);
  const snapshot = await venueSnapshot(deps);
  const rows: AssetRow[] = [];
  for (const id of ids) {
    const asset = universe.get(id);
    if (asset && inClass(asset, q.asset_class)) rows.push(rowOf(asset, snapshot));
  }
  return sortRows(rows, q.sort, q.sort_dir).slice(0, q.limit);
}

export interface FavoriteState {
  asset_id: string;
  is_favorite: boolean;
}

/** Favorites an asset; favoriting it again changes nothing and succeeds. */
export async function addFavorite(deps: AppDeps, userId: string, assetId: string): Promise<FavoriteState> {
  const asset = requireAsset(deps, assetId);
  await deps.storage.favorites.add(userId, asset.id, deps.now());
  return { asset_id: asset.id, is_favorite: true };
}

/** Removes a favorite (named by id or ticker, as on add); removing one that is absent (or an unknown id) succeeds. */
export async function removeFavorite(deps: AppDeps, userId: string, assetId: string): Promise<FavoriteState> {
  const found = universeOf(marketOf(deps)).find(assetId);
  const id = found.length === 1 ? found[0].id : assetId;
  await deps.storage.favorites.remove(userId, id);
  return { asset_id: id, is_favorite: false };
}

/** The legacy body names the asset `asset_id` or `coin_id`; exactly one is needed. */
export function legacyAssetId(body: { asset_id?: string; coin_id?: string }): string {
  const id = body.asset_id ?? body.coin_id;
  if (id === undefined) throw new AppError('InvalidRequest', 'Invalid json: asset_id: Required');
  return id;
}
