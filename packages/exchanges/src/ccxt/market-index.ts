import { VenueError } from '../errors.js';
import type { Market, MarketRequest, MarketType } from '../ports.js';
import type { Universe } from '../universe/universe.js';
import type { CcxtMarket } from './client.js';
import type { VenueProfile } from './venues.js';

/** A ccxt market with what marketlens needs to know about it. */
export interface IndexedMarket {
  ccxt: CcxtMarket;
  /** The venue-native instrument name. */
  pair: string;
  asset_id: string | null;
  market_type: MarketType;
}

/**
 * The venue-native instrument name of a ccxt market: the market id, except Hyperliquid perpetuals,
 * whose ccxt id is the asset index (`0`) while the venue names them by coin (`BTC`, `xyz:TSLA`).
 */
export function nativePair(market: CcxtMarket): string {
  const extra = market as CcxtMarket & { baseName?: unknown };
  if (typeof extra.baseName === 'string' && market.swap === true) return extra.baseName;
  return market.id ?? market.symbol;
}

/** `spot` for spot markets, `derivatives` for swaps and futures, null for anything else (options, indexes). */
export function marketTypeOf(market: CcxtMarket): MarketType | null {
  if (market.spot === true) return 'spot';
  if (market.option === true) return null;
  if (market.swap === true || market.future === true) return 'derivatives';
  return null;
}

/** The asset a ccxt market is on: read from the unified symbol first, then from the native name. */
export function assetOf(market: CcxtMarket, universe: Universe): string | null {
  if (market.option === true) return null;
  const bySymbol = universe.parseInstrument(market.symbol)?.asset_id ?? null;
  if (bySymbol !== null) return bySymbol;
  return universe.parseInstrument(nativePair(market))?.asset_id ?? null;
}

const SPOT_QUOTES = ['USDT', 'USDC', 'USD', 'FDUSD', 'EUR'];
const SETTLES = ['USDT', 'USDC', 'USD'];

function rank(list: readonly string[], code: string | undefined): number {
  const i = code === undefined ? -1 : list.indexOf(code);
  return i < 0 ? list.length : i;
}

/** Orders an asset's markets: spot first, then derivatives; USD-like quotes, perpetuals, linear first. */
function preference(a: IndexedMarket, b: IndexedMarket): number {
  const x = a.ccxt;
  const y = b.ccxt;
  const keys = (m: CcxtMarket): number[] =>
    m.spot === true
      ? [0, rank(SPOT_QUOTES, m.quote)]
      : [1, m.swap === true ? 0 : 1, m.linear === true ? 0 : 1, rank(SETTLES, m.settle), rank(SPOT_QUOTES, m.quote)];
  const kx = keys(x);
  const ky = keys(y);
  for (let i = 0; i < kx.length; i++) if (kx[i] !== ky[i]) return kx[i] - ky[i];
  return x.symbol < y.symbol ? -1 : x.symbol > y.symbol ? 1 : 0;
}

/** The markets of one venue indexed by asset and by native name. */
export class MarketIndex {
  private readonly byAsset = new Map<string, IndexedMarket[]>();
  private readonly bySymbol = new Map<string, IndexedMarket>();
  private readonly byPair = new Map<string, IndexedMarket[]>();

  constructor(
    markets: Readonly<Record<string, CcxtMarket | undefined>>,
    universe: Universe,
    private readonly profile: VenueProfile,
    /** True when the markets' `precision.price` is a tick size (ccxt's `TICK_SIZE` precision mode). */
    private readonly ticks = false,
  ) {
    for (const market of Object.values(markets)) {
      if (market === undefined) continue;
      const type = marketTypeOf(market);
      if (type === null) continue;
      const entry: IndexedMarket = {
        ccxt: market,
        pair: nativePair(market),
        asset_id: assetOf(market, universe),
        market_type: type,
      };
      this.bySymbol.set(market.symbol, entry);
      const same = this.byPair.get(entry.pair);
      if (same === undefined) this.byPair.set(entry.pair, [entry]);
      else same.push(entry);
      if (entry.asset_id === null || market.active === false) continue;
      const list = this.byAsset.get(entry.asset_id);
      if (list === undefined) this.byAsset.set(entry.asset_id, [entry]);
      else list.push(entry);
    }
    for (const list of this.byAsset.values()) list.sort(preference);
  }

  /** The market of a unified ccxt symbol, if it is a spot or derivatives market. */
  bySymbolOf(symbol: string | undefined): IndexedMarket | undefined {
    return symbol === undefined ? undefined : this.bySymbol.get(symbol);
  }

  /** The market with this native name, preferring the given market type. */
  byPairOf(pair: string, preferred: MarketType): IndexedMarket | undefined {
    const list = this.byPair.get(pair) ?? [];
    return list.find((m) => m.market_type === preferred) ?? list[0];
  }

  /** How many active markets of a type the venue lists, whether or not they map to an asset. */
  count(type: MarketType): number {
    let n = 0;
    for (const m of this.bySymbol.values()) if (m.market_type === type && m.ccxt.active !== false) n++;
    return n;
  }

  /** The assets the venue lists an active market of. */
  assets(): string[] {
    return [...this.byAsset.keys()];
  }

  /** Every spot and derivatives market of an asset, default ones first. */
  marketsOf(asset_id: string): readonly IndexedMarket[] {
    return this.byAsset.get(asset_id) ?? [];
  }

  /** As ports `Market` records. */
  portMarkets(asset_id: string): Market[] {
    return this.marketsOf(asset_id).map((m) => toPortMarket(this.profile.id, m, this.ticks));
  }

  /**
   * Resolves a request to one market: the named native pair (optionally of one market type), or
   * the asset's default market of the preferred type, falling back to the type it trades on.
   * Throws `unknown_asset` when the venue lists nothing for the asset, `unknown_market` for a
   * pair the venue does not list or that belongs to another asset.
   */
  resolve(request: MarketRequest, preferred: MarketType = 'spot'): IndexedMarket {
    const name = this.profile.name;
    if (request.pair !== undefined) {
      const candidates = (this.byPair.get(request.pair) ?? []).filter(
        (m) => request.market_type === undefined || m.market_type === request.market_type,
      );
      candidates.sort((a, b) => (a.market_type === preferred ? 0 : 1) - (b.market_type === preferred ? 0 : 1));
      const hit = candidates[0];
      if (hit === undefined) {
        throw new VenueError('unknown_market', `${name} lists no market ${request.pair}`, { venue: this.profile.id });
      }
      if (hit.asset_id !== null && hit.asset_id !== request.asset_id) {
        throw new VenueError(
          'unknown_market',
          `${name} market ${request.pair} is not a market of ${request.asset_id}`,
          {
            venue: this.profile.id,
          },
        );
      }
      return hit;
    }
    const all = this.marketsOf(request.asset_id);
    if (all.length === 0) {
      throw new VenueError('unknown_asset', `${name} lists no market for ${request.asset_id}`, {
        venue: this.profile.id,
      });
    }
    const want = request.market_type ?? preferred;
    return all.find((m) => m.market_type === want) ?? all[0];
  }
}

/** A ports `Market` from an indexed ccxt market; with `ticks`, its `precision.price` is its tick size. */
export function toPortMarket(venue: string, m: IndexedMarket, ticks = false): Market {
  const tick = ticks ? m.ccxt.precision?.price : undefined;
  return {
    ...(tick !== undefined && tick > 0 && Number.isFinite(tick) ? { tick_size: tick } : {}),
    venue,
    pair: m.pair,
    asset_id: m.asset_id,
    market_type: m.market_type,
    base: m.ccxt.base.toUpperCase(),
    quote: m.ccxt.quote.toUpperCase(),
    settle: m.market_type === 'spot' ? null : (m.ccxt.settle?.toUpperCase() ?? null),
  };
}
