import type { Candles } from '@marketlens/core';
import { VenueError } from '../errors.js';
import {
  type AssetClass,
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
  type Timeframe,
  type VenueSummary,
} from '../ports.js';
import { defaultUniverse, type Universe } from '../universe/universe.js';
import { type CandleScan, createCandleCache, emptyCandles } from './candle-cache.js';
import { type Bar, createSimModel, GENESIS, type SimModel } from './model.js';
import { type SimParams, simParams } from './params.js';
import { normal, seedOf } from './prng.js';
import { lastTradedAt, type TradingSession, tradingParts } from './session.js';

/** The simulated venue's id, as listed in the exchange catalog. */
export const SIMULATED_VENUE_ID = 'marketlens-sim';

/** Options of {@link createSimulatedVenue}. */
export interface SimulatedVenueOptions {
  /** The clock, ms UTC; the last candle and every ticker move with it. Default `Date.now`. */
  now?: () => number;
  /** Venue id reported on markets and tickers. Default `marketlens-sim` (its id in the exchange catalog). */
  venue?: string;
  /** The assets to simulate. Default: the built-in universe. */
  universe?: Universe;
  /**
   * Most finished candles kept for repeated reads, over every market and timeframe (48 bytes
   * each); 0 keeps none. Default 500,000 (about 24 MB).
   */
  candleCache?: number;
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
  /** Whether a listed pair trades at `t` (stock spot: NYSE hours; fx spot: Sunday 22:00 to Friday 22:00 UTC). */
  isTrading(pair: string, t: number): boolean;
  /** Open interest of a perpetual at `t` in USD; null for a non-perpetual or a time before the venue existed. */
  openInterestAt(pair: string, t: number): number | null;
  /**
   * What the venue's catalog entry states: its listed spot and perpetual markets and the summed
   * open interest of its perpetuals (USD) now.
   */
  summary(): Promise<VenueSummary>;
}

/** Largest candle window one request may ask for. */
export const MAX_CANDLES = 5000;

/** Default {@link SimulatedVenueOptions.candleCache}: a thousand series at the usual depth of 500. */
const CANDLE_CACHE = 500_000;

const FUNDING_MS = 8 * 3_600_000;
/** Funding with no premium: the 0.01% per 8h interest leg of the large venues. */
const FUNDING_BASE = 0.0001;
/** Largest funding per interval either way (0.3%, a common venue cap). */
const FUNDING_CAP = 0.003;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Open interest of a perpetual as a share of its daily volume, by asset class. */
const OPEN_INTEREST_SHARE: Readonly<Partial<Record<AssetClass, number>>> = { coins: 0.5, stocks: 0.1, fx: 0.005 };
/** Perpetual volume is four times spot: a power of two keeps aggregated volumes exact. */
const PERP_VOLUME_FACTOR = 4;

interface Listing {
  market: Market;
  params: SimParams;
  /** Price multiplier of this market over the asset's path (a perpetual's small basis). */
  factor: number;
  volumeFactor: number;
  /** When the market trades. */
  session: TradingSession;
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
 * and two on-chain tokens. Stock spot trades NYSE regular hours and fx spot Sunday 22:00 to Friday
 * 22:00 UTC (see `session.ts`); coins and every perpetual trade around the clock.
 * @example
 * ```ts
 * import { createSimulatedVenue } from '@marketlens/exchanges';
 *
 * // A fixed clock: the same candles on every run and every machine
 * const venue = createSimulatedVenue({ now: () => Date.UTC(2025, 0, 15, 12) });
 * const { candles, pair, market_type } = await venue.candles({ asset_id: 'bitcoin', timeframe: 'h1', limit: 500 });
 * console.log(pair, market_type, candles.close.length, candles.close.at(-1));
 * const ticker = await venue.ticker({ asset_id: 'ethereum' });
 * console.log(ticker.pair, ticker.last, ticker.change_24h_pct);
 * ```
 */
export function createSimulatedVenue(options: SimulatedVenueOptions = {}): SimulatedVenue {
  const now = options.now ?? Date.now;
  const venue = options.venue ?? SIMULATED_VENUE_ID;
  const universe = options.universe ?? defaultUniverse;
  const { model, params } = modelFor(universe);
  const finished = createCandleCache({
    start: GENESIS,
    maxPerSeries: MAX_CANDLES,
    maxCandles: options.candleCache ?? CANDLE_CACHE,
  });

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
        session: p.spotSession,
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
        // Perpetuals, tokenized stocks and fx included, trade around the clock.
        session: 'always',
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

  /** The traded price of a listing at `t`: while its market is closed, the last close. */
  function price(l: Listing, t: number): number | null {
    const at = lastTradedAt(l.session, t);
    if (at < GENESIS) return null;
    return model.priceAt(l.params.id, at, l.factor);
  }

  /** Base volume and OHLC traded on a listing in [from, to) as of `t` (nothing while its market is closed). */
  function traded(l: Listing, from: number, to: number, t: number): Bar | null {
    let acc: Bar | null = null;
    for (const [a, b] of tradingParts(l.session, from, to)) {
      const part = model.aggregate(l.params.id, a, b, t);
      if (part === null) continue;
      acc =
        acc === null
          ? part
          : {
              open: acc.open,
              high: part.high > acc.high ? part.high : acc.high,
              low: part.low < acc.low ? part.low : acc.low,
              close: part.close,
              volume: acc.volume + part.volume,
            };
    }
    return acc;
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
      default:
        return null;
    }
  }

  function ticker(l: Listing): Ticker {
    const t = now();
    const last = model.priceAt(l.params.id, lastTradedAt(l.session, t), l.factor);
    const tick = model.tick(l.params.id);
    const halfSpread =
      l.params.asset_class === 'fx' ? 0.00004 : l.params.group === 'none' ? 0.00005 : l.params.sigma * 0.004;
    const bid = Math.min(last - tick, model.round(l.params.id, last * (1 - halfSpread)));
    const ask = Math.max(last + tick, model.round(l.params.id, last * (1 + halfSpread)));
    const change = (ms: number): number | null => {
      const before = price(l, t - ms);
      return before === null ? null : (last / before - 1) * 100;
    };
    const day = traded(l, t - 24 * HOUR, t, t);
    const volume = day === null ? 0 : day.volume * l.volumeFactor;
    const avg = day === null ? last : ((day.open + day.high + day.low + day.close) / 4) * l.factor;
    // Prices are in the model's currency (an fx pair's quote, else dollars), whatever the pair's quote.
    const usd = usdPerUnit(l.params.priceCurrency, t);
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

  /** Candles of a listing as served (rounded, basis and volume factor applied), oldest first, from bars newest first. */
  function served(l: Listing, opens: number[], bars: Bar[]): Candles {
    const n = bars.length;
    const out: Candles = {
      time: new Float64Array(n),
      open: new Float64Array(n),
      high: new Float64Array(n),
      low: new Float64Array(n),
      close: new Float64Array(n),
      volume: new Float64Array(n),
    };
    const id = l.params.id;
    for (let i = 0; i < n; i++) {
      const b = bars[n - 1 - i];
      out.time[i] = opens[n - 1 - i];
      out.open[i] = model.round(id, b.open * l.factor);
      out.high[i] = model.round(id, b.high * l.factor);
      out.low[i] = model.round(id, b.low * l.factor);
      out.close[i] = model.round(id, b.close * l.factor);
      out.volume[i] = b.volume * l.volumeFactor;
    }
    return out;
  }

  /**
   * Builds finished candles of a listing (see {@link CandleScan}). A market that does not trade
   * around the clock has a candle only where it traded, each the aggregate of the traded part of
   * its UTC bucket, so every timeframe aggregates the finer ones exactly.
   */
  function scanOf(l: Listing, timeframe: Timeframe): CandleScan {
    const step = TIMEFRAME_MS[timeframe];
    if (l.session === 'always') {
      return (from, to, limit) => {
        const scannedFrom = Math.max(from, to - limit * step);
        // Read as of `to`: every candle opened before it has closed.
        const candles = model.candles(l.params.id, timeframe, scannedFrom, to, to, l.factor, l.volumeFactor);
        return { candles, scannedFrom };
      };
    }
    return (from, to, limit) => {
      const bars: Bar[] = [];
      const opens: number[] = [];
      let open = to - step;
      for (; open >= from && bars.length < limit; open -= step) {
        // As of its close: what it traded, whenever it is read.
        const bar = traded(l, open, open + step, open + step);
        if (bar === null) continue;
        bars.push(bar);
        opens.push(open);
      }
      return { candles: served(l, opens, bars), scannedFrom: open + step };
    };
  }

  /** The candle of a listing opened at `open` and still forming at `t`; none while its market has not traded. */
  function forming(l: Listing, timeframe: Timeframe, open: number, t: number): Candles {
    const step = TIMEFRAME_MS[timeframe];
    if (l.session === 'always') {
      return model.candles(l.params.id, timeframe, open, open + step, t, l.factor, l.volumeFactor);
    }
    const bar = traded(l, open, open + step, t);
    return bar === null ? emptyCandles() : served(l, [open], [bar]);
  }

  function fundingRateAt(pair: string, t: number): number | null {
    const l = byPair.get(pair);
    if (l === undefined || l.market.market_type !== 'derivatives' || t < GENESIS + 4 * 24 * HOUR) return null;
    const slot = Math.floor(t / FUNDING_MS);
    const start = slot * FUNDING_MS;
    // The usual 0.01% per 8h (the interest leg) plus a premium: crowded longs pay after a rally,
    // shorts after a sell-off, a persistent lean per market, and noise. A 10% three-day move adds
    // about 0.012%, so funding mostly sits between 0% and 0.03% and turns negative in sell-offs.
    const seed = seedOf(l.params.id);
    const trend = Math.log(model.priceAt(l.params.id, start) / model.priceAt(l.params.id, start - 3 * 24 * HOUR));
    const lean = 0.00002 * normal(seed, 9, 0);
    const noise = 0.00003 * normal(seed, 8, slot);
    const raw = FUNDING_BASE + 0.0012 * trend + lean + noise;
    const clamped = raw > FUNDING_CAP ? FUNDING_CAP : raw < -FUNDING_CAP ? -FUNDING_CAP : raw;
    return Math.round(clamped * 1e6) / 1e6;
  }

  function openInterestAt(pair: string, t: number): number | null {
    const l = byPair.get(pair);
    if (l === undefined || l.market.market_type !== 'derivatives' || t < GENESIS) return null;
    const seed = seedOf(l.params.id);
    // A coin perpetual holds about half a day's volume open, as on the large venues; tokenized
    // stocks and fx far less (their day traders close by night). A lean per market and a slow
    // drift from day to day (interpolated, so it moves smoothly with the clock).
    const share = OPEN_INTEREST_SHARE[l.params.asset_class] ?? 0.5;
    const ratio = share * Math.exp(0.3 * normal(seed, 20, 0));
    const days = (t - GENESIS) / DAY;
    const k = Math.floor(days);
    const w = days - k;
    const drift = (1 - w) * normal(seed, 21, k) + w * normal(seed, 21, k + 1);
    const contracts = l.params.dailyVolume * l.volumeFactor * ratio * Math.exp(0.15 * drift);
    const usd = usdPerUnit(l.params.priceCurrency, t);
    return usd === null ? null : Math.round(contracts * model.priceAt(l.params.id, t, l.factor) * usd);
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
      // Only the candle holding `t` moves with the clock; the finished ones come from the cache.
      const closedBefore = lastOpen + step > t ? lastOpen : lastOpen + step;
      const live = closedBefore === lastOpen ? forming(l, request.timeframe, lastOpen, t) : emptyCandles();
      const candles = finished.read(
        `${l.market.pair}|${request.timeframe}`,
        closedBefore,
        limit - live.time.length,
        scanOf(l, request.timeframe),
        live,
      );
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
    isTrading(pair: string, t: number): boolean {
      const l = byPair.get(pair);
      return l !== undefined && t >= GENESIS && tradingParts(l.session, t, t + 1).length > 0;
    },
    openInterestAt,
    async summary(): Promise<VenueSummary> {
      const t = now();
      let spot = 0;
      let perps = 0;
      let oi: number | null = 0;
      for (const l of byPair.values()) {
        if (l.market.market_type === 'spot') {
          spot++;
          continue;
        }
        perps++;
        const value = openInterestAt(l.market.pair, t);
        oi = oi === null || value === null ? null : oi + value;
      }
      return { spot_pairs: spot, futures_pairs: perps, open_interest_usd: oi };
    },
  };
  return self;
}
