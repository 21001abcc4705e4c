import type { FundingRate as CcxtFundingRate, OpenInterest as CcxtOpenInterest, Ticker as CcxtTicker } from 'ccxt';
import { VenueError } from '../errors.js';
import type {
  CandleRequest,
  CandleSeries,
  FundingRate,
  Market,
  MarketData,
  MarketRequest,
  Ticker,
  VenueSummary,
} from '../ports.js';
import { readCandles } from './candles.js';
import { available } from './capability.js';
import type { IndexedMarket, MarketIndex } from './market-index.js';
import { type CcxtAdapterOptions, CcxtSession } from './session.js';
import { venueProfile } from './venues.js';

/** Quote currencies whose amounts are US dollars. */
const USD_QUOTES: ReadonlySet<string> = new Set([
  'USD',
  'USDT',
  'USDC',
  'FDUSD',
  'DAI',
  'USDE',
  'BUSD',
  'TUSD',
  'ZUSD',
]);

/** Options of {@link createCcxtMarketData}. */
export interface CcxtMarketDataOptions extends CcxtAdapterOptions {
  /** Venue id: one of `CCXT_VENUES`. */
  venue: string;
}

function positive(value: number | undefined | null): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

function finite(value: number | undefined | null): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A ticker's 24 h quote volume when the market's quote is a US dollar; null otherwise or when not reported. */
export function usdQuoteVolume(market: IndexedMarket, t: CcxtTicker): number | null {
  return USD_QUOTES.has(market.ccxt.quote.toUpperCase()) ? finite(t.quoteVolume) : null;
}

/** Hours in a ccxt funding interval string (`8h`, `1h`, `4h`), null when absent or unreadable. */
export function intervalHours(interval: string | undefined): number | null {
  if (interval === undefined) return null;
  const m = /^(\d+(?:\.\d+)?)\s*([mhd])$/i.exec(interval.trim());
  if (m === null) return null;
  const n = Number(m[1]);
  const unit = m[2].toLowerCase();
  const hours = unit === 'm' ? n / 60 : unit === 'd' ? n * 24 : n;
  return hours > 0 ? hours : null;
}

/**
 * {@link MarketData} of one venue through a ccxt session, one venue call per request. Exported for
 * the ccxt market source, which serves tickers and funding rates from bulk reads instead.
 */
export class CcxtMarketData implements MarketData {
  readonly venue: string;

  constructor(protected readonly session: CcxtSession) {
    this.venue = session.profile.id;
  }

  async candles(request: CandleRequest): Promise<CandleSeries> {
    const { session } = this;
    if (!Number.isInteger(request.limit) || request.limit < 1) {
      throw new VenueError('bad_request', `candle limit must be a positive integer, got ${request.limit}`, {
        venue: this.venue,
      });
    }
    const market = (await session.index()).resolve(request, request.market_type ?? 'spot');
    const symbol = market.ccxt.symbol;
    const { ohlcv } = session.profile;
    const candles = await readCandles(
      (tf, since, limit, until) =>
        session.call((c) => c.fetchOHLCV(symbol, tf, since, limit, ohlcv.until ? { until } : {})),
      {
        timeframe: request.timeframe,
        limit: request.limit,
        end: request.end,
        now: session.now(),
        supported: session.client.timeframes,
        pageSize: ohlcv.pageSize,
      },
    );
    return {
      asset_id: request.asset_id,
      venue: this.venue,
      pair: market.pair,
      market_type: market.market_type,
      timeframe: request.timeframe,
      candles,
    };
  }

  async ticker(request: MarketRequest): Promise<Ticker> {
    const { session } = this;
    const market = (await session.index()).resolve(request, request.market_type ?? 'spot');
    if (!available(session.client.has.fetchTicker)) {
      throw new VenueError('not_supported', `${session.profile.name} serves no tickers`, { venue: this.venue });
    }
    const params = { ...(session.profile.tickerParams?.[market.market_type] ?? {}) };
    const t: CcxtTicker = await session.call((c) => c.fetchTicker(market.ccxt.symbol, params));
    return this.toTicker(market, t);
  }

  /** The ports ticker of a ccxt ticker; throws `unknown_market` when it carries no price. */
  protected toTicker(market: IndexedMarket, t: CcxtTicker): Ticker {
    const last = positive(t.last) ?? positive(t.close);
    if (last === null) {
      throw new VenueError('unknown_market', `${this.session.profile.name} reports no price for ${market.pair}`, {
        venue: this.venue,
      });
    }
    return {
      venue: this.venue,
      pair: market.pair,
      asset_id: market.asset_id,
      market_type: market.market_type,
      last,
      bid: positive(t.bid),
      ask: positive(t.ask),
      change_1h_pct: null,
      change_24h_pct: finite(t.percentage),
      change_7d_pct: null,
      volume_24h: finite(t.baseVolume),
      quote_volume_usd: usdQuoteVolume(market, t),
      time: t.timestamp ?? this.session.now(),
    };
  }

  async fundingRate(request: MarketRequest): Promise<FundingRate | null> {
    const { session } = this;
    const market = await this.perpetualOf(request);
    if (market === null) return null;
    if (!available(session.client.has.fetchFundingRate)) {
      throw new VenueError('not_supported', `${session.profile.name} publishes no funding rates`, {
        venue: this.venue,
      });
    }
    const symbol = market.ccxt.symbol;
    const f: CcxtFundingRate = await session.call((c) => c.fetchFundingRate(symbol));
    return this.toFundingRate(market, f);
  }

  /** The perpetual a funding request names: the given pair, or the asset's default perpetual; null when none. */
  protected async perpetualOf(request: MarketRequest): Promise<IndexedMarket | null> {
    const index = await this.session.index();
    const market =
      request.pair !== undefined
        ? index.resolve({ ...request, market_type: 'derivatives' }, 'derivatives')
        : index.marketsOf(request.asset_id).find((m) => m.ccxt.swap === true);
    return market !== undefined && market.ccxt.swap === true ? market : null;
  }

  /** The ports funding rate of a ccxt one; throws `not_supported` when it carries no rate. */
  protected toFundingRate(market: IndexedMarket, f: CcxtFundingRate): FundingRate {
    const { session } = this;
    const rate = finite(f.fundingRate);
    if (rate === null) {
      throw new VenueError('not_supported', `${session.profile.name} reports no funding rate for ${market.pair}`, {
        venue: this.venue,
      });
    }
    return {
      venue: this.venue,
      pair: market.pair,
      asset_id: market.asset_id,
      rate,
      interval_hours: intervalHours(f.interval) ?? session.profile.defaultFundingHours,
      next_funding_time: positive(f.fundingTimestamp) ?? positive(f.nextFundingTimestamp),
      mark_price: positive(f.markPrice),
      index_price: positive(f.indexPrice),
      time: f.timestamp ?? session.now(),
    };
  }

  async markets(asset_id: string): Promise<Market[]> {
    return (await this.session.index()).portMarkets(asset_id);
  }

  /**
   * The venue's active spot and derivatives markets counted from its loaded markets (mapped to an
   * asset or not), and the summed open interest of its perpetuals in USD where the venue
   * publishes every market's in one call; null where it does not (one call per market would
   * cost hundreds of calls), or when no market of it reports a USD figure.
   */
  async summary(): Promise<VenueSummary> {
    const index = await this.session.index();
    return {
      spot_pairs: index.count('spot'),
      futures_pairs: index.count('derivatives'),
      open_interest_usd: await this.openInterestUsd(index),
    };
  }

  private async openInterestUsd(index: MarketIndex): Promise<number | null> {
    const { session } = this;
    if (!available(session.client.has.fetchOpenInterests)) return null;
    const book: Readonly<Record<string, CcxtOpenInterest | undefined>> = await session.call((c) =>
      c.fetchOpenInterests(),
    );
    const open: { market: IndexedMarket; oi: CcxtOpenInterest }[] = [];
    for (const [symbol, oi] of Object.entries(book)) {
      const market = index.bySymbolOf(oi?.symbol ?? symbol);
      if (oi === undefined || market?.ccxt.swap !== true || market.ccxt.inverse === true) continue;
      if (!USD_QUOTES.has(market.ccxt.quote.toUpperCase())) continue;
      open.push({ market, oi });
    }
    // Some venues report open interest in contracts only (Hyperliquid): valued at the last price.
    const unvalued = open.filter(({ oi }) => finite(oi.openInterestValue) === null).map(({ market }) => market);
    const params = { ...(session.profile.bulk?.tickers.linear ?? {}) };
    const prices: Readonly<Record<string, CcxtTicker | undefined>> =
      unvalued.length > 0 && available(session.client.has.fetchTickers)
        ? await session.call((c) =>
            c.fetchTickers(
              unvalued.map((m) => m.ccxt.symbol),
              params,
            ),
          )
        : {};
    let total: number | null = null;
    for (const { market, oi } of open) {
      const t = prices[market.ccxt.symbol];
      const price = t === undefined ? null : (positive(t.last) ?? positive(t.close));
      const amount = finite(oi.openInterestAmount);
      const value =
        finite(oi.openInterestValue) ??
        (amount === null || price === null ? null : amount * (market.ccxt.contractSize ?? 1) * price);
      if (value !== null) total = (total ?? 0) + value;
    }
    return total;
  }
}

/**
 * Public market data of a real venue through ccxt: candles (paged, with `4h`/`1w` built from
 * shorter candles where a venue lacks them), tickers, funding rates, an asset's markets.
 * Loads ccxt on first use (never at import), then the venue's markets unless `markets` are given.
 * Failures are `VenueError`s.
 */
export async function createCcxtMarketData(options: CcxtMarketDataOptions): Promise<MarketData> {
  const profile = venueProfile(options.venue);
  return new CcxtMarketData(await CcxtSession.open(profile, {}, options));
}
