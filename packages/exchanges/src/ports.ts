/**
 * The ports of @marketlens/exchanges: what the rest of marketlens asks of a data source.
 *
 * `MarketData` serves public market data (candles, tickers, funding, the markets of an asset);
 * `AccountData` serves one connected account's private data, read-only. Adapters (the simulated
 * venue, ccxt, candle files) implement them. Every method is async because real venues are remote.
 *
 * Data types use snake_case field names: they are the wire format the server and MCP publish.
 * Times are milliseconds since the Unix epoch (UTC); the server renders them as date-times.
 * A value a venue does not report is `null`, never `0`.
 */
import { TIMEFRAMES, type Timeframe } from '@marketlens/contract';
import type { Candles } from '@marketlens/core';

/** Candle timeframes, shortest first (`m5 m15 m30 h1 h4 d1 w1`): the contract's one list. */
export { TIMEFRAMES, type Timeframe };

/**
 * Length of one candle of each timeframe in milliseconds. `w1` candles open on Monday 00:00 UTC
 * (Unix time 0 was a Thursday, so weekly buckets are offset by {@link WEEK_OFFSET_MS}).
 */
export const TIMEFRAME_MS: Readonly<Record<Timeframe, number>> = {
  m5: 300_000,
  m15: 900_000,
  m30: 1_800_000,
  h1: 3_600_000,
  h4: 14_400_000,
  d1: 86_400_000,
  w1: 604_800_000,
};

/** Offset of the first Monday 00:00 UTC after the epoch (1970-01-05), the anchor of `w1` buckets. */
export const WEEK_OFFSET_MS = 4 * 86_400_000;

/** Open time of the candle of `timeframe` that contains `time` (UTC; `w1` opens on Mondays). */
export function candleOpenTime(timeframe: Timeframe, time: number): number {
  const step = TIMEFRAME_MS[timeframe];
  const offset = timeframe === 'w1' ? WEEK_OFFSET_MS : 0;
  return Math.floor((time - offset) / step) * step + offset;
}

/** True when `value` is one of {@link TIMEFRAMES}. */
export function isTimeframe(value: unknown): value is Timeframe {
  return typeof value === 'string' && (TIMEFRAMES as readonly string[]).includes(value);
}

/** The two kinds of market: spot, or derivatives (perpetual swaps and futures). */
export type MarketType = 'spot' | 'derivatives';

/** Asset classes: `coins`, `stocks` (including tokenized equities), `fx`, `external` (on-chain). */
export type AssetClass = 'coins' | 'stocks' | 'fx' | 'external';

/** One tradable instrument on a venue. */
export interface Market {
  /** Venue id (`simulated`, `binance`, `bybit`, ...). */
  venue: string;
  /** The venue's native instrument name (`BTCUSDT`, `BTC/USDT:USDT`, `XBTUSD`), never synthesized. */
  pair: string;
  /** The tracked asset this instrument is on, or null when it maps to none. */
  asset_id: string | null;
  market_type: MarketType;
  /** Base currency code, uppercased. */
  base: string;
  /** Quote currency code, uppercased. */
  quote: string;
  /** Settlement currency code of a derivative, uppercased; null for spot. */
  settle: string | null;
  /** The smallest price step the market quotes (0.01 for most stocks); absent when the venue does not say. */
  tick_size?: number;
}

/** Last price and 24h statistics of one market. */
export interface Ticker {
  venue: string;
  pair: string;
  asset_id: string | null;
  market_type: MarketType;
  last: number;
  bid: number | null;
  ask: number | null;
  /** Percent change of `last` over the past hour (2.5 means +2.5%); null when not reported. */
  change_1h_pct: number | null;
  change_24h_pct: number | null;
  change_7d_pct: number | null;
  /** Traded base amount over the past 24 hours. */
  volume_24h: number | null;
  /** Traded quote amount over the past 24 hours converted to USD; null when the quote has no USD price. */
  quote_volume_usd: number | null;
  /** When the venue stamped these values (ms UTC). */
  time: number;
}

/** The funding rate of one perpetual market. */
export interface FundingRate {
  venue: string;
  pair: string;
  asset_id: string | null;
  /** Rate for one funding interval as a fraction (0.0001 = 0.01%); longs pay shorts when positive. */
  rate: number;
  /** Hours between two fundings. */
  interval_hours: number;
  /** Next funding time (ms UTC), null when not reported. */
  next_funding_time: number | null;
  mark_price: number | null;
  index_price: number | null;
  time: number;
}

/** What {@link MarketData.candles} is asked for. */
export interface CandleRequest {
  asset_id: string;
  timeframe: Timeframe;
  /** Preferred market; an asset with no market of that type is served from the one it trades on. */
  market_type?: MarketType;
  /** A venue-native instrument to read instead of the default market of the asset. */
  pair?: string;
  /** Number of candles wanted (the most recent ones up to `end`; fewer when the history is shorter). */
  limit: number;
  /** Serve candles opened before this time (ms UTC, exclusive); default: now, the last candle being live. */
  end?: number;
}

/** Candles with the market that actually served them. */
export interface CandleSeries {
  asset_id: string;
  venue: string;
  pair: string;
  /** The market actually served (differs from the request when the asset has no market of that type). */
  market_type: MarketType;
  timeframe: Timeframe;
  /** Oldest first; the last candle may still be open (live). */
  candles: Candles;
  /** The configured source that served them (`ccxt:binance`, `yahoo`, `files:/srv`); absent: the venue itself. */
  source?: string;
  /** When these candles were last read from upstream (ms UTC); absent: just now. */
  fetched_at?: number;
  /** True when the source failed and the last stored candles are served instead. */
  stale?: boolean;
  /**
   * Up to when the source has seen the market (ms UTC), for a source whose data stops before the
   * clock (a folder of files): a candle whose span ends later is still forming, whatever the clock
   * says (see `splitSeries`). Absent: the source is live, and the clock decides.
   */
  seen_until?: number;
}

/** Names one market of an asset: by its default market of a type, or by a venue-native pair. */
export interface MarketRequest {
  asset_id: string;
  market_type?: MarketType;
  pair?: string;
}

/** Public market data of one venue (or of a composite of venues). */
export interface MarketData {
  /** Venue id. */
  readonly venue: string;
  /** Candles of an asset, newest `limit` ones. Throws `VenueError` `unknown_asset` / `unknown_market`. */
  candles(request: CandleRequest): Promise<CandleSeries>;
  /** The ticker of an asset's market (spot preferred unless `market_type` says otherwise). */
  ticker(request: MarketRequest): Promise<Ticker>;
  /** The funding rate of an asset's perpetual; null when the asset has no perpetual here. */
  fundingRate(request: MarketRequest): Promise<FundingRate | null>;
  /** The spot and derivatives markets of an asset on this venue (empty when it lists none). */
  markets(asset_id: string): Promise<Market[]>;
}

/** Side of a position. */
export type PositionSide = 'long' | 'short';

/** Side of an order or fill. */
export type OrderSide = 'buy' | 'sell';

/** An open position as a venue reports it. */
export interface VenuePosition {
  /** The user connection it was read through. */
  connection: string;
  /** Native instrument name. */
  pair: string;
  /** The asset the pair maps to, or null (the position is then unpriced downstream). */
  asset_id: string | null;
  market_type: MarketType;
  side: PositionSide;
  /** Position size in base units (contracts times contract size), positive. */
  size: number;
  entry_price: number;
  /** The venue's mark price; null when not reported. */
  mark_price: number | null;
  /** Margin committed, in the settlement currency. */
  margin: number | null;
  leverage: number | null;
  liquidation_price: number | null;
  /** Unrealized pnl as the venue reports it, settlement currency. */
  unrealized_pnl: number | null;
  /** Settlement currency, uppercased. */
  settle: string | null;
  /** `linear` (size in base units, money in the quote) or `inverse` (size in quote units, money in the base); default linear. */
  contract_type?: 'linear' | 'inverse';
  /** Maintenance margin the venue requires, settlement currency; null or absent when not reported. */
  maintenance_margin?: number | null;
  /** When the position was opened (ms UTC), null when the venue does not say. */
  opened_at: number | null;
  /** When the venue last updated the position (ms UTC). */
  updated_at: number;
}

/** One balance line, keyed on (connection, symbol, account). */
export interface VenueBalance {
  connection: string;
  /** The venue's currency code, uppercased. */
  symbol: string;
  /** The asset the currency resolves to, or null. */
  asset_id: string | null;
  /** Sub-account: `spot`, `futures`, `margin`, `funding`, ... */
  account: string;
  total: number;
  free: number | null;
  used: number | null;
}

/** One execution (fill) of an order. */
export interface VenueFill {
  connection: string;
  /** The venue's trade id; unique with `connection`. */
  external_id: string;
  order_id: string | null;
  /** Native instrument name. */
  pair: string;
  asset_id: string | null;
  market_type: MarketType;
  side: OrderSide;
  price: number;
  /** Base amount filled. */
  amount: number;
  fee: number | null;
  /** Fee currency, uppercased. */
  fee_currency: string | null;
  /** Realized pnl the venue attributes to this fill (derivatives), null when not reported. */
  realized_pnl: number | null;
  /** Execution time (ms UTC). */
  time: number;
}

/** What {@link AccountData.fills} is asked for. */
export interface FillRequest {
  /** Fills executed at or after this time (ms UTC). */
  since: number;
  /** The `next_cursor` of the previous page; absent for the first page. */
  cursor?: string;
  /** Page size; adapters clamp it to what the venue accepts. */
  limit?: number;
}

/** One page of fills, oldest first. */
export interface FillPage {
  fills: VenueFill[];
  /** Pass back to read the next page; null when this page is the last. */
  next_cursor: string | null;
}

/** A resting stop-loss or take-profit order protecting a position. */
export interface ProtectiveOrder {
  connection: string;
  order_id: string;
  pair: string;
  /** Order side (a stop on a long sells). */
  side: OrderSide;
  kind: 'stop_loss' | 'take_profit';
  trigger_price: number;
  /** Amount covered, null when it closes the whole position. */
  amount: number | null;
}

/** Funding paid on a position since it opened. */
export interface FundingSinceOpen {
  pair: string;
  /** Cumulative funding paid, settlement currency; negative = received; null = not reported. */
  amount: number | null;
  settle: string | null;
}

/** The private data of one connected exchange account, read-only. */
export interface AccountData {
  /** The user connection id this reads. */
  readonly connection: string;
  /** The venue id. */
  readonly venue: string;
  positions(): Promise<VenuePosition[]>;
  balances(): Promise<VenueBalance[]>;
  /** Fills since a time, paginated: call again with `next_cursor` until it is null. */
  fills(request: FillRequest): Promise<FillPage>;
  /** Open stop-loss and take-profit orders. */
  protectiveOrders(): Promise<ProtectiveOrder[]>;
  /** Funding paid on the position in `pair` since `opened_at` (ms UTC). */
  fundingSinceOpen(pair: string, opened_at: number): Promise<FundingSinceOpen>;
}

/**
 * What an adapter states about a whole venue (the simulated venue and ccxt venues do, through an
 * optional `summary()`): its listed spot and derivatives markets and the summed open interest of
 * its perpetuals in USD; a figure the venue does not report is null, never 0.
 */
export interface VenueSummary {
  spot_pairs: number | null;
  futures_pairs: number | null;
  open_interest_usd: number | null;
}
