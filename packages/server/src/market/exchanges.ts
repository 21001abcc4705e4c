import type { Promotion } from '@marketlens/contract';
import {
  type Asset,
  type CcxtVenueId,
  createCcxtSource,
  EXCHANGE_CATALOG,
  type ExchangeCatalogEntry,
  exchangeCatalogEntry,
  type FundingRate,
  isCcxtVenue,
  type MarketData,
  type MarketType,
  type Ticker,
  type VenueSummary,
} from '@marketlens/exchanges';
import { stateKey, stateOf } from '../platform/app-state.js';
import type { AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { venueCall } from '../platform/errors/venue-error.js';
import { assetRef } from './assets.js';
import { isOffline, iso, isoOrNull, marketOf, readSnapshot, SNAPSHOT_TTL_MS, venueSnapshot } from './market.js';
import type { CatalogVenue, MarketQuote, VenueRead, VenueSnapshot } from './quotes.js';
import { guardVenue } from './venue-guard.js';

/** 24h traded volume of a venue in USD; null where marketlens does not read the venue's markets. */
export interface ExchangeVolume {
  spot_24h_usd: number | null;
  derivatives_24h_usd: number | null;
  total_24h_usd: number | null;
}

const NO_VOLUME: ExchangeVolume = Object.freeze({ spot_24h_usd: null, derivatives_24h_usd: null, total_24h_usd: null });

function sumUsd(quotes: readonly MarketQuote[]): number {
  let s = 0;
  for (const q of quotes) s += q.ticker.quote_volume_usd ?? 0;
  return s;
}

function volumeOf(quotes: readonly MarketQuote[]): ExchangeVolume {
  const spot = sumUsd(quotes.filter((q) => q.market.market_type === 'spot'));
  const derivatives = sumUsd(quotes.filter((q) => q.market.market_type === 'derivatives'));
  return { spot_24h_usd: spot, derivatives_24h_usd: derivatives, total_24h_usd: spot + derivatives };
}

/** What the list items say about the caller: the venues it is connected to and its open promotions. */
export interface ExchangeViewer {
  connected: ReadonlySet<string>;
  promotions: ReadonlyMap<string, Promotion>;
}

/**
 * The promotions a user has not claimed (`availablePromotions` of promotions/, which the
 * composition root passes: the market feature does not import the promotions feature).
 */
export type AvailablePromotions = (userId: string) => Promise<readonly Promotion[]>;

const NOBODY: ExchangeViewer = { connected: new Set(), promotions: new Map() };

/** The viewer of `userId` (a session's user, or an API key's owner), with the promotions `promotionsOf` gives. */
export async function exchangeViewer(
  deps: AppDeps,
  userId: string | null,
  promotionsOf: AvailablePromotions,
): Promise<ExchangeViewer> {
  if (userId === null) return NOBODY;
  const [connections, promotions] = await Promise.all([deps.storage.connections.byUser(userId), promotionsOf(userId)]);
  return {
    connected: new Set(connections.map((c) => c.venue)),
    promotions: new Map(promotions.map((p) => [p.connection_id, p])),
  };
}

function listItem(entry: ExchangeCatalogEntry, snapshot: VenueSnapshot | null, viewer: ExchangeViewer) {
  const connected = viewer.connected.has(entry.id);
  return {
    id: entry.id,
    name: entry.name,
    icon: entry.icon,
    connected,
    volume: snapshot ? volumeOf(snapshot.quotes) : NO_VOLUME,
    affiliate_url: entry.affiliate_url,
    api_connection_exists: connected,
    api_key_guide_url: entry.api_key_guide_url,
    promotion: viewer.promotions.get(entry.id) ?? null,
    website_url: entry.website_url,
    spot: entry.spot,
    futures: entry.futures,
    simulated: entry.simulated,
  };
}

/** The venues the server reads: one, or each venue of a composite of sources (`binance+yahoo`). */
function servedVenues(deps: AppDeps): Set<string> {
  return new Set(marketOf(deps).venue.split('+'));
}

/** The part of a snapshot one venue quoted. */
function ofVenue(snapshot: VenueSnapshot | null, venue: string): VenueSnapshot | null {
  if (snapshot === null) return null;
  const quotes = snapshot.quotes.filter((q) => q.market.venue === venue);
  return quotes.length === snapshot.quotes.length ? snapshot : { ...snapshot, venue, quotes };
}

/** `GET /v1/exchanges`: the catalog; the venues the server reads carry live volumes. */
export async function listExchanges(deps: AppDeps, viewer: ExchangeViewer = NOBODY) {
  const venues = servedVenues(deps);
  const snapshot = EXCHANGE_CATALOG.some((e) => venues.has(e.id)) ? await venueSnapshot(deps) : null;
  return EXCHANGE_CATALOG.map((e) => listItem(e, venues.has(e.id) ? ofVenue(snapshot, e.id) : null, viewer));
}

type Summarized = MarketData & { summary(): Promise<VenueSummary> };

function isSummarized(market: MarketData): market is Summarized {
  return typeof (market as Partial<Summarized>).summary === 'function';
}

/** Venues the app does not serve, opened for their catalog entry, by id. */
const CATALOG_VENUES = stateKey('catalog venues', () => new Map<string, CatalogVenue>());

/**
 * A ccxt venue opened for its catalog entry (once per app): through `deps.marketFor` when set,
 * else as a ccxt market source, whose tickers and funding rates come from bulk reads. A venue
 * that fails to open is not kept, so the next request tries again.
 */
function catalogVenue(deps: AppDeps, venue: CcxtVenueId): CatalogVenue {
  const held = stateOf(deps, CATALOG_VENUES);
  const hit = held.get(venue);
  if (hit !== undefined) return hit;
  const open = deps.marketFor ?? ((id: CcxtVenueId) => createCcxtSource({ venue: id }));
  const market = venueCall(async () => open(venue));
  const entry: CatalogVenue = { market };
  held.set(venue, entry);
  market.catch(() => {
    if (held.get(venue) === entry) held.delete(venue);
  });
  return entry;
}

/** A venue the server does not serve, read for its detail at most once per {@link SNAPSHOT_TTL_MS}. */
function readCatalogVenue(deps: AppDeps, venue: CcxtVenueId): Promise<VenueRead> {
  const entry = catalogVenue(deps, venue);
  const now = deps.now();
  const last = entry.read;
  if (last && now >= last.at && now - last.at < SNAPSHOT_TTL_MS) return last.value;
  const value = (async (): Promise<VenueRead> => {
    const market = await entry.market;
    const summary = isSummarized(market) ? await venueCall(() => market.summary()) : null;
    const guarded = guardVenue(market, deps.config.venueLimits);
    return { summary, snapshot: await readSnapshot(guarded, now) };
  })();
  const read = { at: now, value };
  entry.read = read;
  value.catch(() => {
    if (entry.read === read) entry.read = undefined;
  });
  return value;
}

/**
 * What the detail of a catalog entry reads: the served venue's snapshot (and its own summary when
 * the configured market is that venue alone); a ccxt venue it does not serve is opened and read
 * (503 when it cannot be); any other venue is not read.
 */
async function venueRead(deps: AppDeps, entry: ExchangeCatalogEntry): Promise<VenueRead> {
  if (servedVenues(deps).has(entry.id)) {
    const configured = marketOf(deps);
    const snapshot = ofVenue(await venueSnapshot(deps), entry.id);
    if (configured.venue === entry.id && isSummarized(configured)) {
      return { summary: await venueCall(() => configured.summary()), snapshot };
    }
    if (!isCcxtVenue(entry.id)) return { summary: null, snapshot };
    // One venue of a composite of sources: its quotes are served, its summary is read from the venue.
    const market = await catalogVenue(deps, entry.id).market;
    return { summary: isSummarized(market) ? await venueCall(() => market.summary()) : null, snapshot };
  }
  // Offline (the embedded default) no other venue is read: its live fields are null and `live` says so.
  if (isCcxtVenue(entry.id) && !isOffline(deps)) return readCatalogVenue(deps, entry.id);
  return { summary: null, snapshot: null };
}

/**
 * `GET /v1/exchanges/{exchange_id}`: the list item plus pair counts, open interest and tickers;
 * 404 when unknown. Pair counts are the venue's listed markets (its loaded markets for a ccxt
 * venue), else the markets it quoted; open interest is null where the venue does not report it.
 */
export async function exchangeDetail(deps: AppDeps, exchangeId: string, viewer: ExchangeViewer = NOBODY) {
  const entry = exchangeCatalogEntry(exchangeId);
  if (!entry) throw new AppError('UnknownExchange', `Unknown exchange '${exchangeId}'`);
  const served = servedVenues(deps).has(entry.id);
  const { summary, snapshot } = await venueRead(deps, entry);
  const quotes = snapshot?.quotes ?? [];
  const spot = quotes.filter((q) => q.market.market_type === 'spot');
  const futures = quotes.filter((q) => q.market.market_type === 'derivatives');
  return {
    // List volumes stay those of the venues the server serves: a read for one detail is no live figure for the list.
    ...listItem(entry, served ? snapshot : null, viewer),
    spot_pairs: summary?.spot_pairs ?? spot.length,
    futures_pairs: summary?.futures_pairs ?? futures.length,
    futures_open_interest_usd: summary?.open_interest_usd ?? null,
    live: summary !== null || snapshot !== null,
    spot_tickers: spot.map((q) => ({ ...tickerWire(q.ticker), base: q.market.base, quote: q.market.quote })),
    futures_tickers: futures.map((q) => ({
      ...tickerWire(q.ticker),
      base: q.market.base,
      quote: q.market.quote,
      settle: q.market.settle,
      ...fundingWire(q.funding),
    })),
  };
}

/** A ticker as published (`CoinTicker`). */
export function tickerWire(t: Ticker) {
  return {
    venue: t.venue,
    pair: t.pair,
    asset_id: t.asset_id,
    market_type: t.market_type,
    last: t.last,
    bid: t.bid,
    ask: t.ask,
    change_1h_pct: t.change_1h_pct,
    change_24h_pct: t.change_24h_pct,
    change_7d_pct: t.change_7d_pct,
    volume_24h: t.volume_24h,
    quote_volume_usd: t.quote_volume_usd,
    time: iso(t.time),
  };
}

/** The funding columns of a perpetual's ticker (null for spot or when the venue reports none). */
export function fundingWire(funding: FundingRate | null) {
  return {
    funding_rate: funding?.rate ?? null,
    funding_interval_hours: funding?.interval_hours ?? null,
    next_funding_time: isoOrNull(funding?.next_funding_time ?? null),
    mark_price: funding?.mark_price ?? null,
    index_price: funding?.index_price ?? null,
  };
}

/** Every market of the asset on the venue with its ticker; both kinds when `marketType` is absent. */
export async function marketsOf(market: MarketData, asset: Asset, marketType: MarketType | undefined) {
  const markets = await venueCall(() => market.markets(asset.id));
  const rows = await Promise.all(
    markets
      .filter((m) => marketType === undefined || m.market_type === marketType)
      .map(async (m) => {
        const request = { asset_id: asset.id, pair: m.pair };
        const ticker = await venueCall(() => market.ticker(request));
        const funding = m.market_type === 'derivatives' ? await market.fundingRate(request).catch(() => null) : null;
        return { ...tickerWire(ticker), base: m.base, quote: m.quote, settle: m.settle, ...fundingWire(funding) };
      }),
  );
  return { asset: assetRef(asset), venue: market.venue, markets: rows };
}
