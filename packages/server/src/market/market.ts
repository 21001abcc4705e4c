import {
  type CcxtVenueId,
  createCcxtMarketData,
  createSimulatedVenue,
  defaultUniverse,
  isCcxtVenue,
  type Market,
  type MarketData,
  type MarketSources,
  SIMULATED_VENUE_ID,
  type Universe,
} from '@marketlens/exchanges';
import { stateKey, stateOf } from '../platform/app-state.js';
import type { AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { venueCall } from '../platform/errors/venue-error.js';
import type { SharedState } from '../platform/redis/shared-state.js';
import type { MarketQuote, VenueSnapshot } from './quotes.js';
import { guardVenue } from './venue-guard.js';

/** The market of an app given none: one simulated venue on the real clock. */
const DEFAULT_MARKET = stateKey('default market', () => createSimulatedVenue());

/** Real venues a `connection` query named, opened once per app, by id (one that failed to open is dropped). */
const OPENED_MARKETS = stateKey('opened markets', () => new Map<CcxtVenueId, Promise<MarketData>>());

/** The app's last venue snapshot (see {@link venueSnapshot}). */
const SNAPSHOT = stateKey('venue snapshot', () => ({
  held: null as { at: number; value: Promise<VenueSnapshot> } | null,
}));

/** True when `market` is a composite of configured sources (it lists them and their health). */
export function isMarketSources(market: MarketData): market is MarketSources {
  return typeof (market as Partial<MarketSources>).status === 'function';
}

/** The app's market data: the injected one, else one simulated venue on the real clock. */
export function marketOf(deps: AppDeps): MarketData {
  return deps.market ?? stateOf(deps, DEFAULT_MARKET);
}

/**
 * Whether the app reads no network market: the simulated venue alone (the embedded default), with
 * no venue opener injected. Then nothing reaches outside: a `connection` naming a real venue
 * reads a simulated one under its id, and the exchange catalog's other venues are not read.
 */
export function isOffline(deps: AppDeps): boolean {
  return deps.marketFor === undefined && marketOf(deps).venue === SIMULATED_VENUE_ID;
}

/**
 * The market data a `connection` (an exchange id) names: absent, the simulated
 * venue's id or the configured venue's own id read the configured market; a ccxt venue is opened
 * once per app through `deps.marketFor` (else `createCcxtMarketData`, which loads ccxt only then;
 * offline, {@link isOffline}, a simulated venue under its id);
 * any other id is 404 `UnknownExchange`. A venue that fails to open is not kept, so the next
 * request tries again; its `VenueError` is translated like any market-data read.
 */
export async function marketFor(deps: AppDeps, connection: string | undefined): Promise<MarketData> {
  const configured = marketOf(deps);
  if (connection === undefined || connection === SIMULATED_VENUE_ID || connection === configured.venue) {
    return configured;
  }
  if (!isCcxtVenue(connection)) throw new AppError('UnknownExchange', `Unknown exchange '${connection}'`);
  const opened = stateOf(deps, OPENED_MARKETS);
  const held = opened.get(connection);
  if (held !== undefined) return held;
  // Offline (the embedded default): the venue is simulated under its id, never opened over the network.
  const open = isOffline(deps)
    ? (venue: CcxtVenueId) => createSimulatedVenue({ now: deps.now, venue })
    : (deps.marketFor ?? ((venue: CcxtVenueId) => createCcxtMarketData({ venue })));
  const market = venueCall(async () => guardVenue(await open(connection), deps.config.venueLimits));
  opened.set(connection, market);
  market.catch(() => {
    if (opened.get(connection) === market) opened.delete(connection);
  });
  return market;
}

/** The assets a market serves: a simulated venue's own universe, else the built-in one. */
export function universeOf(market: MarketData): Universe {
  const own = (market as { universe?: Universe }).universe;
  return own ?? defaultUniverse;
}

/** How long a venue snapshot serves lists (assets, exchanges) before it is read again. */
export const SNAPSHOT_TTL_MS = 60_000;

/** Every quote of `market` now (tickers, and funding of perpetuals); a market it cannot quote is left out. */
export async function readSnapshot(market: MarketData, now: number): Promise<VenueSnapshot> {
  const perAsset = await Promise.all(
    universeOf(market).assets.map(async (asset) => {
      const markets = await market.markets(asset.id).catch(() => [] as Market[]);
      const quotes = await Promise.all(
        markets.map(async (m): Promise<MarketQuote | null> => {
          try {
            const request = { asset_id: asset.id, pair: m.pair };
            const ticker = await market.ticker(request);
            const funding = m.market_type === 'derivatives' ? await market.fundingRate(request) : null;
            return { market: m, ticker, funding };
          } catch {
            // A market the venue cannot quote right now is left out of lists, never a failure.
            return null;
          }
        }),
      );
      return [asset.id, quotes.filter((q): q is MarketQuote => q !== null)] as const;
    }),
  );
  return snapshotOf(market.venue, now, perAsset);
}

function snapshotOf(venue: string, at: number, perAsset: readonly (readonly [string, MarketQuote[]])[]): VenueSnapshot {
  return { venue, at, quotes: perAsset.flatMap(([, q]) => q), byAsset: new Map(perAsset) };
}

/**
 * A snapshot read once for every instance sharing Redis within each {@link SNAPSHOT_TTL_MS} (the
 * others wait for it, single-flight), carried as JSON: quotes are plain data.
 */
async function sharedSnapshot(shared: SharedState, market: MarketData, now: number): Promise<VenueSnapshot> {
  const slot = Math.floor(now / SNAPSHOT_TTL_MS);
  const text = await shared.cache.getOrCompute(`snapshot:${market.venue}:${slot}`, SNAPSHOT_TTL_MS, async () => {
    const s = await readSnapshot(market, now);
    return JSON.stringify({ venue: s.venue, at: s.at, perAsset: [...s.byAsset] });
  });
  const wire = JSON.parse(text) as { venue: string; at: number; perAsset: [string, MarketQuote[]][] };
  return snapshotOf(wire.venue, wire.at, wire.perAsset);
}

/** The venue's quotes, read at most once per {@link SNAPSHOT_TTL_MS} (concurrent callers share a read). */
export function venueSnapshot(deps: AppDeps): Promise<VenueSnapshot> {
  const market = marketOf(deps);
  const now = deps.now();
  const slot = stateOf(deps, SNAPSHOT);
  const held = slot.held;
  if (held && now >= held.at && now - held.at < SNAPSHOT_TTL_MS) return held.value;
  const value = deps.shared === undefined ? readSnapshot(market, now) : sharedSnapshot(deps.shared, market, now);
  const entry = { at: now, value };
  slot.held = entry;
  value.catch(() => {
    if (slot.held === entry) slot.held = null;
  });
  return value;
}

/** The market an asset's row is priced from: spot first, else the derivatives it trades on. */
export function primaryQuote(quotes: readonly MarketQuote[] | undefined): MarketQuote | null {
  if (!quotes || quotes.length === 0) return null;
  return quotes.find((q) => q.market.market_type === 'spot') ?? quotes[0] ?? null;
}

/** Epoch ms as an ISO date-time, the wire form of every time (the contract's helpers). */
export { iso, isoOrNull } from '@marketlens/contract';
