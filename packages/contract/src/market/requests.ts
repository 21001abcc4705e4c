/**
 * Input schemas of the market tools (analysis, signal, overview, markets, signal list, screener,
 * Fear & Greed, asset lists, favorites, exchanges). The REST asset-list query is this package's
 * {@link AssetListInput} (the server's `routes/v2/market-schemas.ts` imports it), so the two cannot
 * drift. Timeframes are accepted in both spellings, the REST one (`h1`, `m15`, `d1`) and the one a
 * person writes (`1h`, `15m`, `1d`), and handed to the `Backend` in the REST spelling.
 */
import { z } from 'zod';
import { SIGNAL_TIMEFRAMES, TIMEFRAMES, timeframeSchema } from '../timeframes.js';
import { FEAR_GREED_ZONES } from '../words.js';

/** `asset_class` filter of the lists: `coins` (default), `stocks`, `fx`, or `all` (fx and on-chain included). */
export const ASSET_CLASS_FILTERS = ['coins', 'stocks', 'fx', 'all'] as const;
export type AssetClassFilter = (typeof ASSET_CLASS_FILTERS)[number];

/** Sorts of the asset lists; rows missing the value come last. */
export const ASSET_SORTS = ['volume', 'price', 'change_1h', 'change_24h', 'change_7d', 'name'] as const;

export const MARKET_TYPES = ['spot', 'derivatives'] as const;
export type MarketTypeName = (typeof MARKET_TYPES)[number];

export const FEAR_GREED_SORTS = ['score', 'volume', 'change_24h'] as const;

/** Candles analysed: 500 free, up to 5000 with Pro. */
export const CHART_DEPTH = { min: 50, free: 500, pro: 5000 } as const;

const AssetId = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .describe(
    'Asset id (`bitcoin`, `stock-aapl`, `fx-eurusd`, ...), or an unambiguous ticker or pair (`BTC`, `AAPL`, `EURUSD`); a ticker of several assets is 400 `AmbiguousAsset`',
  );

const Connection = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .describe('Exchange id whose market data is read (see list_exchanges); absent: the configured venue');

const MarketType = z.enum(MARKET_TYPES);

/** `get_asset_analysis`, `get_asset_signal`, `get_asset_overview`: an asset and how to read it. */
export const AssetAnalysisInput = z.object({
  asset_id: AssetId,
  timeframe: timeframeSchema(TIMEFRAMES)
    .default('d1')
    .describe('1d (default, free); every other timeframe needs Pro (code 1004)'),
  market_type: MarketType.optional().describe('Preferred market (a preference, not a filter)'),
  pair: z.string().min(1).max(64).optional().describe('Venue-native instrument of the asset, e.g. BTC/USDT'),
  limit: z
    .number()
    .int()
    .min(CHART_DEPTH.min)
    .max(CHART_DEPTH.pro)
    .default(CHART_DEPTH.free)
    .describe(`Candles analysed; deeper than ${CHART_DEPTH.free} needs Pro (code 1005)`),
  connection: Connection,
});
export type AssetAnalysisInput = z.output<typeof AssetAnalysisInput>;

/** `get_asset_overview`: an analysis request and the language of the narrative. */
export const AssetOverviewInput = AssetAnalysisInput.extend({
  locale: z
    .string()
    .max(64)
    .optional()
    .describe('Language: en, es, de, fr, pt, ja, zh (a regional tag uses its language; else en)'),
});
export type AssetOverviewInput = z.output<typeof AssetOverviewInput>;

/** `get_asset_markets`. */
export const AssetMarketsInput = z.object({
  asset_id: AssetId,
  market_type: MarketType.optional().describe('Only this market type; absent: spot and derivatives'),
  connection: Connection,
});
export type AssetMarketsInput = z.output<typeof AssetMarketsInput>;

const AssetClassFilterSchema = z
  .enum(ASSET_CLASS_FILTERS)
  .default('coins')
  .describe('`coins` (default), `stocks`, `fx`, or `all` (every class, fx and on-chain included)');

/** `get_trading_signals`: the signal list over an asset class. */
export const TradingSignalsInput = z.object({
  timeframe: timeframeSchema(SIGNAL_TIMEFRAMES).default('d1').describe('1h, 15m or 1d (default)'),
  asset_class: AssetClassFilterSchema,
  limit: z.number().int().min(1).max(500).default(100).describe('Rows at most; free accounts get the top 10'),
});
export type TradingSignalsInput = z.output<typeof TradingSignalsInput>;

/**
 * The signal list with its paid controls (the operation `analysis.signals`): `controls` are the
 * ten signal controls by their wire names, as a query names them (`/v2/config` publishes them);
 * the use case checks the caller's tier for them and parses their values (400 when malformed).
 * MCP's `get_trading_signals` takes {@link TradingSignalsInput}, without them.
 */
export const SignalListInput = TradingSignalsInput.extend({
  controls: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .optional()
    .describe('The signal controls by name (Pro): each a value, or a list of values'),
});

/** `get_screener`: breakouts, oversold zones and volume surges of an asset class (d1). */
export const ScreenerInput = z.object({ asset_class: AssetClassFilterSchema });
export type ScreenerInput = z.output<typeof ScreenerInput>;

/** `get_fear_greed`: coins ranked by Fear & Greed (the REST `/v2/insights/fear_greed` filters). */
export const FearGreedInput = z.object({
  zone: z.enum(FEAR_GREED_ZONES).optional().describe('Only assets in this zone'),
  min_volume: z.number().min(0).optional().describe('Smallest 24h USD volume'),
  exclude_stables: z.boolean().default(true).describe('Leave stablecoins out (default true)'),
  sort: z.enum(FEAR_GREED_SORTS).default('score'),
  sort_dir: z.enum(['asc', 'desc']).default('desc'),
  limit: z.number().int().min(1).default(50).describe('Default 50; capped at 100'),
});
export type FearGreedInput = z.output<typeof FearGreedInput>;

/**
 * `GET /v2/assets/` query and MCP `list_assets` / `get_favorite_assets`: class, sort and size of an
 * asset list. `limit` is coerced, so a query string's digits and a JSON number both read.
 */
export const AssetListInput = z.object({
  asset_class: AssetClassFilterSchema,
  sort: z.enum(ASSET_SORTS).default('volume').describe('Rows missing the value come last'),
  sort_dir: z.enum(['asc', 'desc']).default('desc'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type AssetListInput = z.output<typeof AssetListInput>;

/** `add_favorite_asset` / `remove_favorite_asset`. */
export const FavoriteInput = z.object({ asset_id: AssetId });

/** `get_exchange_detail`. */
export const ExchangeDetailInput = z.object({
  exchange_id: z.string().trim().min(1).max(64).describe('Exchange id from list_exchanges, e.g. binance'),
});

/** `get_pilot_spectate_history`: pages the trade list backwards from a trade index. */
export const PilotHistoryInput = z.object({
  before_trade: z.number().int().min(0).optional().describe('Trades before this index (from a previous page)'),
});

/** Tools that take no input. */
export const NoInput = z.object({});
