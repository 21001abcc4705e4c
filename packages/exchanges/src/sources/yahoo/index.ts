/**
 * The `yahoo` market source: stocks, ETFs, indices and fx pairs read from Yahoo Finance's public
 * chart API. Yahoo lists every instrument as one spot market under its own symbol (`AAPL`,
 * `EURUSD=X`, `^GSPC`) and has no derivatives, so funding is always null.
 */

import { VenueError } from '../../errors.js';
import {
  type CandleRequest,
  type CandleSeries,
  candleOpenTime,
  type Market,
  type MarketRequest,
  TIMEFRAME_MS,
  type Ticker,
  type Timeframe,
} from '../../ports.js';
import type { AssetDefinition } from '../../universe/assets.js';
import type { ListedAsset, MarketSource } from '../source.js';
import { type Bar, chartBars, localDay, toCandleBars, toCandles, weeksOnMonday } from './bars.js';
import { type ChartClientConfig, fetchChart, type YahooInterval } from './client.js';
import type { ChartMeta } from './schema.js';
import { type YahooListing, yahooListings } from './symbols.js';

/** Calls started per second at most against Yahoo (its unofficial API throttles bursts). */
export const YAHOO_RATE_PER_SECOND = 4;

/** Options of {@link createYahooSource}. */
export interface YahooSourceOptions {
  /** Where the chart API is; default `https://query1.finance.yahoo.com` (tests pass a local server). */
  baseUrl?: string;
  /** The clock (ms UTC); default `Date.now`. */
  now?: () => number;
  /** A request slower than this fails with `timeout`; default 10 000 ms. */
  timeoutMs?: number;
  /** Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Yahoo symbols served beyond the built-in stocks and fx pairs (`NVDA`, `BRK-B`, `^GSPC`, `EURCHF=X`). */
  symbols?: readonly string[];
}

const SOURCE = 'yahoo';
const DAY_MS = 86_400_000;
const EARLIEST = Date.UTC(1900, 0, 1);

/** The Yahoo bars each timeframe is read from; `h4` folds `60m` bars, `w1` falls back to folding `1d`. */
const INTERVAL: Readonly<Record<Timeframe, YahooInterval>> = {
  m5: '5m',
  m15: '15m',
  m30: '30m',
  h1: '60m',
  h4: '60m',
  d1: '1d',
  w1: '1wk',
};

/**
 * How far back Yahoo serves intraday bars (60 days of 5m/15m/30m, 730 days of 60m; a range starting
 * earlier is refused whole with HTTP 422), less a day so that a clock ahead of Yahoo's stays inside.
 */
const HISTORY_MS: Readonly<Partial<Record<YahooInterval, number>>> = {
  '5m': 59 * DAY_MS,
  '15m': 59 * DAY_MS,
  '30m': 59 * DAY_MS,
  '60m': 729 * DAY_MS,
};

/**
 * Calendar time to ask for so that `limit` candles come back. Exchanges trade 6.5 hours on 5 days
 * of 7, so intraday candles are spread about 5x over the calendar and days 1.4x; the margins cover
 * holidays. Asking for more than needed costs a bigger answer, asking for less returns short series.
 */
function spanMs(timeframe: Timeframe, limit: number): number {
  const step = TIMEFRAME_MS[timeframe];
  if (timeframe === 'd1') return Math.ceil(limit * 1.6) * step + 10 * DAY_MS;
  if (timeframe === 'w1') return (limit + 3) * step;
  return limit * 7 * step + 4 * DAY_MS;
}

/** Yahoo's currency to the code marketlens uses: sub-units keep their own codes (`GBp` pence -> `GBX`). */
function currencyCode(currency: string | null | undefined): string {
  if (currency === null || currency === undefined || currency === '') return 'XXX'; // ISO 4217: no currency
  if (currency === 'GBp') return 'GBX';
  if (currency === 'ZAc') return 'ZAC';
  return currency.toUpperCase();
}

/** Session volume in USD from a chart meta; null when not in USD or not reported. */
function usdVolume(meta: ChartMeta | undefined): number | null {
  if (meta === undefined || meta.currency !== 'USD') return null;
  const volume = meta.regularMarketVolume;
  const price = meta.regularMarketPrice;
  return volume !== null && volume !== undefined && volume > 0 && price !== null && price !== undefined
    ? volume * price
    : null;
}

/** Percent change from `from` to `to`; null without a positive reference. */
function pctChange(to: number, from: number | null | undefined): number | null {
  return from !== null && from !== undefined && from > 0 ? (to / from - 1) * 100 : null;
}

/**
 * Creates the Yahoo source. It serves the built-in stocks (`stock-aapl` as `AAPL`) and fx pairs
 * (`fx-eurusd` as `EURUSD=X`) plus `options.symbols` (`stock-brk-b`, `index-gspc`); candles of
 * `m5 m15 m30 h1` from the matching Yahoo interval, `h4` folded from `60m`, `d1` from `1d`, `w1`
 * from `1wk` when Yahoo's weeks open on Monday and folded from `1d` otherwise. Candles are placed
 * on marketlens's UTC grid (see `toCandleBars`); intraday reads are clamped to the history
 * Yahoo keeps. Throws `VenueError` `bad_request` for a configured symbol it cannot serve. Errors of
 * calls are `VenueError`s (see `fetchChart`); nothing is retried here.
 */
export function createYahooSource(options: YahooSourceOptions = {}): MarketSource {
  const now = options.now ?? Date.now;
  const config: ChartClientConfig = {
    baseUrl: options.baseUrl ?? 'https://query1.finance.yahoo.com',
    timeoutMs: options.timeoutMs ?? 10_000,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    now,
  };
  const listings = yahooListings(options.symbols ?? []);
  // The last meta read per symbol: names and volumes for listAssets, the currency for markets.
  const metas = new Map<string, ChartMeta>();

  function listingOf(request: MarketRequest): YahooListing {
    const listing = listings.get(request.asset_id);
    if (listing === undefined) {
      throw new VenueError('unknown_asset', `yahoo serves no asset ${request.asset_id}`, { venue: SOURCE });
    }
    if (request.pair !== undefined && request.pair.trim().toUpperCase() !== listing.symbol) {
      const message = `yahoo lists ${request.asset_id} as ${listing.symbol}, not ${request.pair}`;
      throw new VenueError('unknown_market', message, { venue: SOURCE });
    }
    return listing;
  }

  async function read(symbol: string, interval: YahooInterval, from: number, to: number) {
    const result = await fetchChart(config, { symbol, interval, from, to });
    metas.set(symbol, result.meta);
    return { bars: chartBars(result), meta: result.meta };
  }

  /** Candles of `timeframe` opened in `[from, lastOpen]`. */
  async function readCandles(symbol: string, timeframe: Timeframe, from: number, lastOpen: number): Promise<Bar[]> {
    const to = lastOpen + TIMEFRAME_MS[timeframe];
    const interval = INTERVAL[timeframe];
    let bars: Bar[];
    if (interval === '1wk') {
      // Asked from a Monday, Yahoo's weeks start on Mondays; checked, as they follow the range's
      // start otherwise, and then the weeks are folded from days.
      const weekly = await read(symbol, '1wk', from, to);
      if (weeksOnMonday(weekly.bars, weekly.meta)) bars = toCandleBars(weekly.bars, '1wk', timeframe, weekly.meta);
      else {
        const daily = await read(symbol, '1d', from - DAY_MS, to);
        bars = toCandleBars(daily.bars, '1d', timeframe, daily.meta);
      }
    } else {
      // A day earlier: an fx day opens at London midnight, 23:00 UTC the day before in summer.
      const daily = interval === '1d';
      const chart = await read(symbol, interval, daily ? from - DAY_MS : from, to);
      bars = toCandleBars(chart.bars, interval, timeframe, chart.meta);
    }
    // `from` opens a candle, so the first one kept is whole.
    return bars.filter((b) => b.time >= from && b.time <= lastOpen);
  }

  async function metaOf(symbol: string): Promise<ChartMeta> {
    const cached = metas.get(symbol);
    if (cached !== undefined) return cached;
    const t = now();
    return (await read(symbol, '1d', t - 5 * DAY_MS, t + DAY_MS)).meta;
  }

  function definitionOf(listing: YahooListing): AssetDefinition {
    if (listing.builtin) return listing.definition;
    const meta = metas.get(listing.symbol);
    const name = meta?.longName ?? meta?.shortName;
    return name === null || name === undefined ? listing.definition : { ...listing.definition, name };
  }

  return {
    source: SOURCE,
    venue: SOURCE,
    // Yahoo publishes no limit; it answers bursts with 429s, so calls are spaced (a few a second).
    ratePerSecond: YAHOO_RATE_PER_SECOND,

    async candles(request: CandleRequest): Promise<CandleSeries> {
      const listing = listingOf(request);
      const { timeframe } = request;
      const limit = Math.floor(request.limit);
      const series = (bars: readonly Bar[]): CandleSeries => ({
        asset_id: listing.definition.id,
        venue: SOURCE,
        pair: listing.symbol,
        market_type: 'spot',
        timeframe,
        candles: toCandles(bars),
        source: SOURCE,
      });
      if (!(limit > 0)) return series([]);
      const t = now();
      const step = TIMEFRAME_MS[timeframe];
      const lastOpen = candleOpenTime(timeframe, request.end === undefined ? t : request.end - 1);
      let from = candleOpenTime(timeframe, lastOpen + step - spanMs(timeframe, limit));
      const history = HISTORY_MS[INTERVAL[timeframe]];
      if (history !== undefined && from < t - history) {
        from = candleOpenTime(timeframe, t - history - 1) + step; // the first whole candle inside
      }
      // Yahoo's longest daily histories start in the 1920s; a huge limit asks from 1900, not from before.
      if (from < EARLIEST) from = candleOpenTime(timeframe, EARLIEST - 1) + step;
      if (from > lastOpen) return series([]); // entirely before the intraday history Yahoo keeps
      const bars = await readCandles(listing.symbol, timeframe, from, lastOpen);
      return series(bars.slice(-limit));
    },

    async ticker(request: MarketRequest): Promise<Ticker> {
      const listing = listingOf(request);
      const t = now();
      // Two weeks of days: the previous close and the close a week ago, across a long weekend.
      const { bars, meta } = await read(listing.symbol, '1d', candleOpenTime('d1', t) - 15 * DAY_MS, t + DAY_MS);
      const days = toCandleBars(bars, '1d', 'd1', meta);
      const last = meta.regularMarketPrice ?? days.at(-1)?.close;
      if (last === null || last === undefined) {
        throw new VenueError('network', `yahoo ${listing.symbol}: no price in the answer`, { venue: SOURCE });
      }
      const time =
        meta.regularMarketTime !== null && meta.regularMarketTime !== undefined
          ? meta.regularMarketTime * 1000
          : (days.at(-1)?.time ?? t);
      const today = localDay(time, meta);
      // The previous session's close: the last day read before today; when the range holds none,
      // the close before the range (chartPreviousClose) is that session's.
      const previous =
        days.filter((d) => d.time < today).at(-1)?.close ?? meta.previousClose ?? meta.chartPreviousClose;
      const weekAgo = days.filter((d) => d.time <= today - 7 * DAY_MS).at(-1)?.close;
      const sessionVolume = meta.regularMarketVolume ?? days.find((d) => d.time === today)?.volume ?? null;
      // fx and some indices report a volume of 0: not reported, not "nothing traded".
      const volume = sessionVolume !== null && sessionVolume > 0 ? sessionVolume : null;
      return {
        venue: SOURCE,
        pair: listing.symbol,
        asset_id: listing.definition.id,
        market_type: 'spot',
        last,
        bid: null,
        ask: null,
        change_1h_pct: null,
        change_24h_pct: pctChange(last, previous),
        change_7d_pct: pctChange(last, weekAgo),
        volume_24h: volume,
        quote_volume_usd: volume !== null && meta.currency === 'USD' ? volume * last : null,
        time,
      };
    },

    async fundingRate(): Promise<null> {
      return null;
    },

    async markets(asset_id: string): Promise<Market[]> {
      const listing = listings.get(asset_id);
      if (listing === undefined) return [];
      const { definition, symbol } = listing;
      const [base, quote] =
        definition.fx !== undefined
          ? definition.fx
          : [definition.symbol.toUpperCase(), currencyCode((await metaOf(symbol)).currency)];
      return [{ venue: SOURCE, pair: symbol, asset_id, market_type: 'spot', base, quote, settle: null }];
    },

    async listAssets(): Promise<ListedAsset[]> {
      return [...listings.values()].map((listing) => ({
        definition: definitionOf(listing),
        quote_volume_usd: usdVolume(metas.get(listing.symbol)),
      }));
    },
  };
}
