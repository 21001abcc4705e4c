import { EXCHANGE_CATALOG, type ExchangeCatalogEntry, exchangeCatalogEntry } from '@marketlens/exchanges';
import type { AppDeps } from '../env.js';
import { AppError } from '../errors/app-error.js';
import { fundingWire, tickerWire } from './analysis.js';
import { type MarketQuote, marketOf, type VenueSnapshot, venueSnapshot } from './market.js';
import { availablePromotions, type PromotionView } from './promotions/catalog.js';

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
  promotions: ReadonlyMap<string, PromotionView>;
}

const NOBODY: ExchangeViewer = { connected: new Set(), promotions: new Map() };

/** The viewer of `userId` (a session's user, or an API key's owner). */
export async function exchangeViewer(deps: AppDeps, userId: string | null): Promise<ExchangeViewer> {
  if (userId === null) return NOBODY;
  const [connections, promotions] = await Promise.all([
    deps.storage.connections.byUser(userId),
    availablePromotions(deps.storage, userId),
  ]);
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

/** `GET /v1/exchanges/{exchange_id}`: the list item plus pair counts and tickers; 404 when unknown. */
export async function exchangeDetail(deps: AppDeps, exchangeId: string, viewer: ExchangeViewer = NOBODY) {
  const entry = exchangeCatalogEntry(exchangeId);
  if (!entry) throw new AppError('UnknownExchange', `Unknown exchange '${exchangeId}'`);
  const snapshot = servedVenues(deps).has(entry.id) ? ofVenue(await venueSnapshot(deps), entry.id) : null;
  const quotes = snapshot?.quotes ?? [];
  const spot = quotes.filter((q) => q.market.market_type === 'spot');
  const futures = quotes.filter((q) => q.market.market_type === 'derivatives');
  return {
    ...listItem(entry, snapshot, viewer),
    spot_pairs: spot.length,
    futures_pairs: futures.length,
    // No venue marketlens reads reports open interest yet; the contract types it as a number.
    futures_open_interest_usd: 0,
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
