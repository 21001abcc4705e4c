import { VenueError } from '../errors.js';
import {
  type CandleRequest,
  type CandleSeries,
  type FundingRate,
  isTimeframe,
  type Market,
  type MarketData,
  type MarketRequest,
  type MarketType,
  TIMEFRAME_MS,
  type Ticker,
} from '../ports.js';
import { defaultUniverse, type Universe } from '../universe/universe.js';
import { createSimModel, GENESIS, type SimModel } from './model.js';
import { type SimParams, simParams } from './params.js';
import { normal, seedOf } from './prng.js';

/** Options of {@link createSimulatedVenue}. */
/** The simulated venue's id, as listed in the exchange catalog. */
export const SIMULATED_VENUE_ID = 'marketlens-sim';

export interface SimulatedVenueOptions {
  /** The clock, ms UTC; the last candle and every ticker move with it. Default `Date.now`. */
  now?: () => number;
  /** Venue id reported on markets and tickers. Default `marketlens-sim` (its id in the exchange catalog). */
  venue?: string;
  /** The assets to simulate. Default: the built-in universe. */
  universe?: Universe;
}

/** The simulated venue: a {@link MarketData} plus what its demo accounts and catalogs need. */
export interface SimulatedVenue extends MarketData {
  readonly universe: Universe;
  /** The clock the venue reads. */
  now(): number;
  /** Every market the venue lists. */
  listMarkets(): Market[];
  /** Tickers of every market (of one type when given). */
  tickers(marketType?: MarketType): Promise<Ticker[]>;
  /** The traded price of a listed pair at time `t`; null for an unlisted pair or a time before the venue existed. */
  priceAt(pair: string, t: number): number | null;
  /** The funding rate of a perpetual for the 8h interval containing `t` (fraction); null for a non-perpetual. */
  fundingRateAt(pair: string, t: number): number | null;
}

/** Largest candle window one request may ask for. */
export const MAX_CANDLES = 5000;

const FUNDING_MS = 8 * 3_600_000;
const HOUR = 3_600_000;
/** Perpetual volume is four times spot: a power of two keeps aggregated volumes exact. */
const PERP_VOLUME_FACTOR = 4;

interface Listing {
  market: Market;
  params: SimParams;
  /** Price multiplier of this market over the asset's path (a perpetual's small basis). */
  factor: number;
  volumeFactor: number;
}

let sharedModel: { universe: Universe; model: SimModel; params: SimParams[] } | undefined;

function modelFor(universe: Universe): { model: SimModel; params: SimParams[] } {
  if (universe === defaultUniverse && sharedModel !== undefined) return sharedModel;
  const params: SimParams[] = [];
  for (const asset of universe.assets) {
    const p = simParams(asset);
    if (p !== null) params.push(p);
  }
  const built = { universe, model: createSimModel(params), params };
  // The model is a pure function of its parameters, so every venue on the built-in universe shares one.
  if (universe === defaultUniverse) sharedModel = built;
  return built;
}

function splitPair(pair: string): { base: string; quote: string; settle: string | null } {
  const [left, settle] = pair.split(':');
  const [base, quote] = left.split('/');
  return { base, quote: quote ?? '', settle: settle ?? null };
}

/**
 * Creates the simulated venue: offline, deterministic, live with the injected clock. It lists
 * spot and perpetual markets (`BTC/USDT`, `BTC/USDT:USDT`), stocks on `AAPL/USD` and tokenized
 * perpetuals `AAPLX/USDT:USDT` (some stocks only the latter), fx spot and USD-quoted fx perpetuals,
 * and two on-chain tokens.
 */
export function createSimulatedVenue(options: SimulatedVenueOptions = {}): SimulatedVenue {
  const now = options.now ?? Date.now;
  const venue = options.venue ?? SIMULATED_VENUE_ID;
  const universe = options.universe ?? defaultUniverse;
  const { model, params } = modelFor(universe);

  const byPair = new Map<string, Listing>();
  const byAsset = new Map<string, Listing[]>();
  for (const p of params) {
    const list: Listing[] = [];
    if (p.spot !== null) {
      const { base, quote } = splitPair(p.spot);
      list.push({
        market: { venue, pair: p.spot, asset_id: p.id, market_type: 'spot', base, quote, settle: null },
        params: p,
        factor: 1,
        volumeFactor: 1,
      });
    }
    if (p.perp !== null) {
      const { base, quote, settle } = splitPair(p.perp);
      // A perpetual trades at a small, fixed basis to spot; a perp-only asset's path is the perpetual itself.
      const basis = p.spot === null ? 0 : 0.0004 * normal(seedOf(p.id), 7, 0);
      list.push({
        market: { venue, pair: p.perp, asset_id: p.id, market_type: 'derivatives', base, quote, settle },
        params: p,
        factor: 1 + basis,
        volumeFactor: PERP_VOLUME_FACTOR,
      });
    }
    byAsset.set(p.id, list);
    for (const l of list) byPair.set(l.market.pair, l);
  }

  function listingsOf(assetId: string): Listing[] {
    const list = byAsset.get(assetId);
    if (list !== undefined) return list;
    if (universe.get(assetId) === undefined) {
      throw new VenueError('unknown_asset', `Unknown asset '${assetId}'.`, { venue });
    }
    return [];
  }

  /** The listing a request names: its pair, else its preferred market type, else whatever the asset trades on. */
  function pick(request: MarketRequest): Listing {
    const list = listingsOf(request.asset_id);
    if (request.pair !== undefined) {
      const hit = list.find((l) => l.market.pair === request.pair);
      if (hit === undefined) {
        throw new VenueError('unknown_market', `${venue} lists no market '${request.pair}' for ${request.asset_id}.`, {
          venue,
        });
      }
      return hit;
    }
    const preferred = request.market_type ?? 'spot';
    const hit = list.find((l) => l.market.market_type === preferred) ?? list[0];
    if (hit === undefined) {
      throw new VenueError('unknown_market', `${venue} lists no market for ${request.asset_id}.`, { venue });
    }
    return hit;
  }

  function price(l: Listing, t: number): number | null {
    if (t < GENESIS) return null;
    return model.priceAt(l.params.id, t, l.factor);
  }

  /** USD value of one unit of a quote currency, or null when it has none here. */
  function usdPerUnit(code: string, t: number): number | null {
    switch (code) {
      case 'USD':
      case 'USDT':
      case 'USDC':
        return 1;
      case 'JPY':
      case 'CAD':
      case 'CHF': {
        const rate = model.has(`fx-usd${code.toLowerCase()}`) ? model.priceAt(`fx-usd${code.toLowerCase()}`, t) : null;
        return rate === null ? null : 1 / rate;
      }
      case 'GBP':
        return model.has('fx-gbpusd') ? model.priceAt('fx-gbpusd', t) : null;
      case 'WETH':
        return model.has('ethereum') ? model.priceAt('ethereum', t) : null;
      case 'SOL':
        return model.has('solana') ? model.priceAt('solana', t) : null;
      default:
        return null;
    }
  }

  function ticker(l: Listing): Ticker {
    const t = now();
    const last = model.priceAt(l.params.id, t, l.factor);
    const tick = model.tick(l.params.id);
    const halfSpread =
      l.params.asset_class === 'fx' ? 0.00004 : l.params.group === 'none' ? 0.00005 : l.params.sigma * 0.004;
    const bid = Math.min(last - tick, model.round(l.params.id, last * (1 - halfSpread)));
    const ask = Math.max(last + tick, model.round(l.params.id, last * (1 + halfSpread)));
    const change = (ms: number): number | null => {
      const before = price(l, t - ms);
      return before === null ? null : (last / before - 1) * 100;
    };
    const day = model.aggregate(l.params.id, t - 24 * HOUR, t, t);
    const volume = day === null ? 0 : day.volume * l.volumeFactor;
    const avg = day === null ? last : ((day.open + day.high + day.low + day.close) / 4) * l.factor;
    const usd = usdPerUnit(l.market.quote, t);
    return {
      venue,
      pair: l.market.pair,
      asset_id: l.market.asset_id,
      market_type: l.market.market_type,
      last,
      bid,
      ask,
      change_1h_pct: change(HOUR),
      change_24h_pct: change(24 * HOUR),
      change_7d_pct: change(7 * 24 * HOUR),
      volume_24h: volume,
      quote_volume_usd: usd === null ? null : volume * avg * usd,
      time: t,
    };
  }

  function fundingRateAt(pair: string, t: number): number | null {
    const l = byPair.get(pair);
    if (l === undefined || l.market.market_type !== 'derivatives' || t < GENESIS + 4 * 24 * HOUR) return null;
    const slot = Math.floor(t / FUNDING_MS);
    const start = slot * FUNDING_MS;
    // Funding follows the recent trend (crowded longs pay) around the usual 0.01% per 8h.
    const trend = Math.log(model.priceAt(l.params.id, start) / model.priceAt(l.params.id, start - 3 * 24 * HOUR));
    const noise = 0.00008 * normal(seedOf(l.params.id), 8, slot);
    const raw = 0.0001 + 0.01 * trend + noise;
    const clamped = raw > 0.0075 ? 0.0075 : raw < -0.0075 ? -0.0075 : raw;
    return Math.round(clamped * 1e6) / 1e6;
  }

  const self: SimulatedVenue = {
    venue,
    universe,
    now,
    async candles(request: CandleRequest): Promise<CandleSeries> {
      if (!isTimeframe(request.timeframe)) {
        throw new VenueError('bad_request', `Unknown timeframe '${String(request.timeframe)}'.`, { venue });
      }
      const { limit } = request;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_CANDLES) {
        throw new VenueError('bad_request', `limit must be an integer in 1..${MAX_CANDLES}, got ${limit}.`, { venue });
      }
      const l = pick(request);
      const t = now();
      const end = request.end === undefined ? t + 1 : Math.min(request.end, t + 1);
      const step = TIMEFRAME_MS[request.timeframe];
      const lastOpen = Math.floor((end - 1 - GENESIS) / step) * step + GENESIS;
      const from = lastOpen - (limit - 1) * step;
      const candles = model.candles(l.params.id, request.timeframe, from, end, t, l.factor, l.volumeFactor);
      return {
        asset_id: l.params.id,
        venue,
        pair: l.market.pair,
        market_type: l.market.market_type,
        timeframe: request.timeframe,
        candles,
      };
    },
    async ticker(request: MarketRequest): Promise<Ticker> {
      return ticker(pick(request));
    },
    async fundingRate(request: MarketRequest): Promise<FundingRate | null> {
      const list = listingsOf(request.asset_id);
      const l =
        request.pair !== undefined ? pick(request) : (list.find((x) => x.market.market_type === 'derivatives') ?? null);
      if (l === null) return null;
      const t = now();
      const rate = fundingRateAt(l.market.pair, t);
      if (rate === null) return null;
      const spot = list.find((x) => x.market.market_type === 'spot');
      return {
        venue,
        pair: l.market.pair,
        asset_id: l.market.asset_id,
        rate,
        interval_hours: 8,
        next_funding_time: (Math.floor(t / FUNDING_MS) + 1) * FUNDING_MS,
        mark_price: model.priceAt(l.params.id, t, l.factor),
        index_price: model.priceAt(l.params.id, t, spot?.factor ?? 1),
        time: t,
      };
    },
    async markets(assetId: string): Promise<Market[]> {
      return listingsOf(assetId).map((l) => ({ ...l.market }));
    },
    listMarkets: () => [...byPair.values()].map((l) => ({ ...l.market })),
    async tickers(marketType?: MarketType): Promise<Ticker[]> {
      const out: Ticker[] = [];
      for (const l of byPair.values())
        if (marketType === undefined || l.market.market_type === marketType) out.push(ticker(l));
      return out;
    },
    priceAt(pair: string, t: number): number | null {
      const l = byPair.get(pair);
      return l === undefined ? null : price(l, t);
    },
    fundingRateAt,
  };
  return self;
}
