import { z } from 'zod';
import { PromotionSchema } from '../promotions/responses.js';
import { DEFAULT_TIMEFRAME, TIMEFRAMES, timeframeSchema } from '../timeframes.js';
import { FEAR_GREED_ZONES } from '../words.js';
import { CHART_DEPTH } from './requests.js';
import { CANDLE_PATTERNS, HISTORY_OUTPUTS, REGIME_PHASES, SIGNAL_FACTORS, ZONE_SOURCES } from './words.js';

/** Wire schemas of the market-data routes (analysis, assets, exchanges): one source for validation and OpenAPI. */

const n = z.number();
const nn = z.number().nullable();
const time = z.iso.datetime();

export const MarketTypeSchema = z.enum(['spot', 'derivatives']);
export const AssetClassSchema = z.enum(['coins', 'stocks', 'fx', 'external']);

export const AssetRefSchema = z
  .object({
    id: z.string().meta({ example: 'bitcoin' }),
    symbol: z.string(),
    name: z.string(),
    icon: z.string().meta({ description: 'A data: URI (never a remote URL)' }),
    asset_class: AssetClassSchema,
  })
  .meta({ id: 'AssetRef' });

const ServedFields = {
  asset: AssetRefSchema,
  timeframe: z.enum(TIMEFRAMES),
  market_type: MarketTypeSchema.meta({ description: 'The market actually served' }),
  pair: z.string().meta({ description: 'Venue-native instrument name', example: 'BTC/USDT' }),
  venue: z.string(),
  data_source: z.string().meta({
    description:
      'The configured market source that served the candles: `simulated`, `ccxt:<venue>`, `yahoo` or `files:<dir>`',
    example: 'ccxt:binance',
  }),
  fetched_at: z.iso.datetime().meta({ description: 'When the candles were read from that source' }),
  stale: z.boolean().meta({
    description: 'True when the source failed and the last stored candles were served instead',
  }),
};

// ---- analysis parts (core's wire objects) ----

const IndicatorsSchema = z
  .object({
    close: n,
    change_pct: nn,
    volume: n,
    volume_z: nn,
    volume_ratio: nn,
    sma_20: nn,
    sma_50: nn,
    sma_200: nn,
    ema_20: nn,
    ema_50: nn,
    ema_200: nn,
    rsi_14: nn,
    macd: nn,
    macd_signal: nn,
    macd_histogram: nn,
    stoch_k: nn,
    stoch_d: nn,
    adx_14: nn,
    plus_di_14: nn,
    minus_di_14: nn,
    atr_14: nn,
    atr_pct: nn,
    cci_20: nn,
    williams_r_14: nn,
  })
  .meta({ id: 'IndicatorSnapshot' });

const zoneFields = {
  kind: z.enum(['support', 'resistance']),
  low: n,
  high: n,
  mid: n,
  strength: n,
  touches: z.number().int(),
  last_touch_index: z.number().int(),
  last_touch_time: time,
  volume: n,
  sources: z.array(z.enum(ZONE_SOURCES)).min(1).meta({
    description:
      "What made the zone: swing (clustered swing highs/lows), gap (a price gap not filled since), all_time_high / all_time_low (of the whole stored history before the as-of candle), high_52w / low_52w, volume_node (holds the volume profile's point of control)",
  }),
  timeframe: z.string().nullable().meta({
    description:
      "The timeframe of the candles the zone was found on: the next higher one (w1 for daily candles, d1 for intraday) when one of its swings came from it; null when the candles' spacing is not a known timeframe",
    example: 'w1',
  }),
};
const ZoneSchema = z.object(zoneFields).meta({ id: 'PriceZone' });
const NearestLevelSchema = z.object({ ...zoneFields, distance_pct: n, distance_atr: nn }).meta({ id: 'NearestLevel' });

const LevelsSchema = z
  .object({
    as_of_index: z.number().int(),
    as_of_time: time,
    mark: n,
    atr: nn,
    zones: z.array(ZoneSchema),
    inside: ZoneSchema.nullable().meta({
      description: 'The zone holding the mark (low <= mark <= high): neither support nor resistance; null when none',
    }),
    nearest_support: NearestLevelSchema.nullable().meta({
      description: 'The nearest zone entirely below the mark; distances to its top (negative)',
    }),
    nearest_resistance: NearestLevelSchema.nullable().meta({
      description: 'The nearest zone entirely above the mark; distances to its bottom',
    }),
    reason: z.literal('insufficient_data').optional().meta({
      description:
        'Fewer candles than the levels need (`history.min_candles.levels`): no zones, no nearest support or resistance',
    }),
    range: z
      .object({
        all_time_high: n,
        all_time_high_time: time,
        all_time_low: n,
        all_time_low_time: time,
        high_52w: n,
        low_52w: n,
        candles: z.number().int().meta({ description: 'Candles of history read for the extremes' }),
      })
      .meta({
        description: 'Extremes of the whole stored history up to the as-of candle (not only the levels window)',
      }),
    at_all_time_high: z.boolean().meta({
      description:
        'The close is at or above the high of every earlier stored candle: no stored level lies above, which is why the resistance side may be empty',
    }),
    at_all_time_low: z.boolean().meta({
      description: 'The close is at or below the low of every earlier stored candle (mirrors at_all_time_high)',
    }),
    timeframe: z.string().nullable().meta({ description: "The candles' timeframe, read from their spacing" }),
    higher_timeframe: z.string().nullable().meta({
      description:
        'The higher timeframe whose swings took part in the levels (w1 for daily, d1 for intraday); null when none',
    }),
  })
  .meta({ id: 'AnalysisLevels' });

const VolumeProfileSchema = z
  .object({
    poc: n,
    value_area_low: n,
    value_area_high: n,
    total_volume: n,
    basis: z.enum(['volume', 'time']),
    bins: z.array(z.object({ low: n, high: n, volume: n })),
  })
  .meta({ id: 'VolumeProfile' });

const Direction = z.enum(['long', 'short']);
const TradePlanSchema = z
  .object({
    direction: Direction.nullable(),
    bias: Direction.nullable(),
    reason: z
      .enum([
        'no_direction',
        'no_trend',
        'insufficient_data',
        'atr_warmup',
        'risk_below_cost',
        'degenerate_geometry',
        'target_blocked',
        'poor_reward',
        'session_close',
      ])
      .nullable()
      .meta({
        description:
          'Why there is no trade; target_blocked: the entry is inside an opposing level, or the first level in the way pays less than the minimum gross risk-reward; poor_reward: target 1 pays less than the minimum risk-reward (default 1.5) after the round-trip cost, from the close and from every support a limit order could wait at; session_close: the only candle left to enter in is the last of its session',
      }),
    published_index: z.number().int(),
    published_time: time,
    mark: n,
    atr: nn,
    entry_type: z.enum(['market', 'limit']).nullable().meta({
      description:
        'market: enter in the band at the close; limit: a resting order at the near edge of a support below the close (a resistance above it for a short), filled only if the price comes back to it within entry_window_bars, else the plan expires unfilled; null without a trade',
    }),
    entry_zone: z.object({ low: n, high: n }).nullable(),
    entry_price: nn,
    invalidation: nn,
    stop_loss: nn,
    take_profits: z
      .array(
        z.object({
          price: n,
          size_pct: n,
          risk_reward: n.meta({ description: 'Gross: |price - entry| / |entry - stop|' }),
          risk_reward_net: n.meta({
            description: 'Net of the round trip: (reward - cost) / (risk + cost), cost = cost_pct% of the entry',
          }),
        }),
      )
      .max(2)
      .meta({ description: 'At most two targets: 70% / 30% of the position, or 100% for one' }),
    risk_pct: nn,
    cost_pct: nn.meta({
      description: 'Round-trip cost (fees and spread) in % of the entry price; null without a trade',
    }),
    horizon_bars: nn,
    entry_window_bars: nn,
  })
  .meta({ id: 'TradePlan' });

const FactorName = z.enum(SIGNAL_FACTORS);

/** What a call's plan (or a declined plan) is worth after the asset class's costs. */
export const SignalEdgeSchema = z
  .object({
    probability: n.meta({
      description:
        "Calibrated probability that the plan reaches target 1 before its stop (a call's confidence; for a no_edge hold, of the declined plan)",
    }),
    probability_low: n.meta({
      description: 'Lower end of its credible interval (Beta posterior of the calibration data)',
    }),
    probability_high: n.meta({ description: 'Upper end of that interval' }),
    break_even: n.meta({
      description: 'The probability at which the plan neither wins nor loses after costs: loss_r / (win_r + loss_r)',
    }),
    win_r: n.meta({ description: 'R won when target 1 is reached first, net of the round-trip cost' }),
    loss_r: n.meta({ description: 'R lost at the stop, with the round-trip cost (1 + cost / risk)' }),
    expected_r: n.meta({
      description: "probability * win_r - (1 - probability) * loss_r: the plan's expected R after costs",
    }),
    expected_r_low: n.meta({
      description:
        'Expected R at the lower end of the probability interval: a call is published only when it is above 0',
    }),
    expected_r_high: n.meta({ description: 'Expected R at the upper end of the probability interval' }),
    level: n.meta({ description: 'Coverage of both intervals (0.9: a central 90% interval)' }),
  })
  .meta({ id: 'SignalEdge' });

/** A plan a hold declined: built as a published plan would be, kept for the record. */
export const DeclinedPlanSchema = TradePlanSchema.extend({
  recommendation: z.literal(false).meta({ description: 'Always false: a declined plan is not a trade to take' }),
}).meta({ id: 'DeclinedPlan' });

export const SignalSchema = z
  .object({
    action: z.enum(['buy', 'hold', 'sell']),
    score: n.meta({ description: 'Composite score in -1..1' }),
    confidence: n.meta({
      description:
        "A calibrated probability, 0..1. Buy/Sell: that the published plan, once entered, reaches target 1 before its stop and time stop after the asset class's round trip, given the signal's evidence and the plan's geometry (its break-even). Hold: 1 minus that probability for the plan on the side the score leans to. Compare it with base_rate",
    }),
    raw_confidence: n.meta({ description: 'The uncalibrated evidence for the side the score leans to, 0..1' }),
    base_rate: n.meta({
      description:
        "The forecast without the signal, 0..1: for a call judged by a plan with a trade, the probability the calibration gives that plan's geometry alone (its break-even, at the training average of the evidence); otherwise how often a plan of this timeframe family reached target 1 first in the calibration's training data",
    }),
    factors: z.array(
      z.object({
        name: FactorName,
        score: nn,
        weight: n,
        base_weight: n,
        contribution: n,
        inputs: z.record(z.string(), z.union([z.number(), z.string()]).nullable()),
        reason: z.literal('insufficient_data').optional(),
      }),
    ),
    weights: z.record(z.string(), n),
    threshold: n,
    reason: z.enum(['insufficient_data', 'no_edge', 'poor_reward']).optional().meta({
      description:
        "`insufficient_data`: fewer candles than the signal needs (`history.min_candles.signal`, 200) or no factor out of warm-up: a Hold with score and confidence 0; `no_edge`: the score called a side but its calibrated probability did not clear the base rate, or its plan's expected R after costs was not above 0 at the lower end of its interval (or the plan had no trade), so the signal holds; `poor_reward`: the call's plan was declined because target 1 pays less than the minimum risk-reward after costs (its declined_plan has that reason), so the signal holds",
    }),
    edge: SignalEdgeSchema.nullable().meta({
      description:
        "Buy/Sell: what the published plan is worth after the asset class's costs (probability, break-even, expected R, with intervals). Hold with no_edge: the same for the declined plan (null when it had no trade). Other holds: null",
    }),
    declined_plan: DeclinedPlanSchema.nullable().meta({
      description:
        'Hold with no_edge: the plan the call would have published, marked recommendation: false (not a trade to take); otherwise null',
    }),
  })
  .meta({ id: 'Signal' });

const RatingLabel = z.enum(['strong_sell', 'sell', 'neutral', 'buy', 'strong_buy']);
const RatingGroupSchema = z.object({
  value: nn,
  rating: RatingLabel.nullable(),
  buy: n,
  neutral: n,
  sell: n,
  votes: z.array(
    z.object({ name: z.string(), value: nn, vote: z.union([z.literal(-1), z.literal(0), z.literal(1)]).nullable() }),
  ),
});
const TechnicalRatingSchema = z
  .object({
    value: nn,
    rating: RatingLabel.nullable(),
    moving_averages: RatingGroupSchema,
    oscillators: RatingGroupSchema,
    reason: z.literal('insufficient_data').optional().meta({
      description:
        'Fewer candles than the rating needs (`history.min_candles.technical_rating`, 200): value, rating and the group values are null; the votes cast are listed',
    }),
  })
  .meta({ id: 'TechnicalRating' });

const FgComponent = z.enum(['volatility', 'momentum', 'volume', 'overextension', 'funding', 'breadth', 'dominance']);
export const FearGreedSchema = z
  .object({
    score: z.number().int().min(0).max(100).nullable(),
    zone: z.enum(FEAR_GREED_ZONES).nullable(),
    components: z.array(
      z.object({ name: FgComponent, value: n, weight: n, base_weight: n, inputs: z.record(z.string(), nn) }),
    ),
    unavailable: z.array(
      z.object({ name: FgComponent, reason: z.enum(['not_supplied', 'insufficient_data', 'no_volume']) }),
    ),
    reason: z.literal('insufficient_data').optional().meta({
      description:
        'Fewer candles than Fear & Greed needs (`history.min_candles.fear_greed`) or no component computable: score and zone are null',
    }),
  })
  .meta({ id: 'FearGreed' });

const Phase = z.enum(REGIME_PHASES).meta({
  description:
    'markup / markdown: an advance / decline (swing structure and EMA50 slope, or a 2-ATR thrust); accumulation / distribution: a range while SMA200 still falls / rises; range: a range with a flat SMA200',
});
const RegimeSchema = z
  .object({
    phase: Phase.nullable(),
    previous_phase: Phase.nullable(),
    since: time.nullable(),
    bars_in_phase: z
      .number()
      .int()
      .min(1)
      .nullable()
      .meta({ description: 'Bars of the current phase, the as-of bar included: at least 1; null with `reason`' }),
    strength: nn,
    transition: z.object({ from: Phase, to: Phase, time, bars_ago: z.number().int() }).nullable(),
    changed: z.boolean(),
    structure: z.enum(['up', 'down', 'mixed']).nullable().meta({
      description:
        'Swing structure: higher highs and higher lows (up), lower highs and lower lows (down), else mixed; null before two swings each way',
    }),
    inputs: z.object({
      ema_50: nn,
      atr_14: nn,
      efficiency_ratio: nn,
      move_atr: nn.meta({
        description: 'Net move of the last 20 closes in ATR(14): never markdown above +2, never markup below -2',
      }),
      channel_position: nn,
      sma_200: nn,
      ema_50_slope_atr: nn,
      sma_200_slope_atr: nn,
      swing_high: nn,
      previous_swing_high: nn,
      swing_low: nn,
      previous_swing_low: nn,
    }),
    reason: z.literal('insufficient_data').optional().meta({
      description: 'Fewer candles than the regime needs (`history.min_candles.regime`, 220): phase null',
    }),
  })
  .meta({ id: 'Regime' });

const HistoryOutput = z.enum(HISTORY_OUTPUTS);
const HistorySchema = z
  .object({
    candles: z.number().int().meta({ description: 'Candles the analysis read: the as-of candle and those before it' }),
    min_candles: z.record(HistoryOutput, z.number().int()).meta({
      description: 'Candles each output needs before it is published; below it the output carries `insufficient_data`',
    }),
    insufficient: z.array(HistoryOutput).meta({
      description: 'The outputs withheld for too short a history (null or empty, with `reason: insufficient_data`)',
    }),
  })
  .meta({ id: 'AnalysisHistory' });

const LiveMarkSchema = z
  .object({
    price: n.meta({ description: 'Last price of the live candle' }),
    time: time.meta({ description: 'Open time of the live candle' }),
    change_pct: nn.meta({ description: 'Change from the close of the candle analysed, in %' }),
    entry_distance_pct: nn.meta({
      description: "Distance from the plan's entry band in % (0 inside it); null when there is no plan",
    }),
  })
  .meta({ id: 'LiveMark' });

export const AnalysisSchema = z
  .object({
    ...ServedFields,
    as_of: time.meta({
      description:
        'Open time of the candle analysed: the newest closed one. Signal, levels and plan are computed on closed candles and stay fixed until the next candle closes',
    }),
    as_of_index: z.number().int(),
    indicators: IndicatorsSchema,
    levels: LevelsSchema,
    volume_profile: VolumeProfileSchema,
    zone: TradePlanSchema,
    signal: SignalSchema,
    technical_rating: TechnicalRatingSchema,
    fear_greed: FearGreedSchema,
    regime: RegimeSchema,
    patterns: z
      .array(z.enum(CANDLE_PATTERNS))
      .nullable()
      .meta({ description: 'Candlestick patterns of the as-of candle; null below `history.min_candles.patterns`' }),
    history: HistorySchema,
    live: LiveMarkSchema.nullable().meta({
      description:
        'The candle still forming when the candles were read (null when none is: a closed session or a stale source); it moves distances, never the analysis',
    }),
  })
  .meta({ id: 'Analysis' });

export const SignalResponseSchema = z
  .object({
    ...ServedFields,
    as_of: time,
    signal: SignalSchema,
    cached_at: time.meta({ description: 'When this signal was computed' }),
    age: z.number().int().meta({ description: 'Seconds since cached_at' }),
    max_age: z.number().int().meta({ description: 'Seconds it is still served from the cache (of 3600)' }),
  })
  .meta({ id: 'AnalysisSignal' });

export const OverviewSchema = z
  .object({
    ...ServedFields,
    as_of: time,
    locale: z.string().meta({ description: 'The language served: the x-locale language when supported, else en' }),
    text: z.string(),
    source: z.enum(['facts', 'llm']).meta({
      description:
        '`facts`: the deterministic narrative; `llm`: a rewrite by the configured OpenAI-compatible endpoint, served only when every number in it is one of `facts`',
    }),
    facts: z.array(
      z.object({
        id: z.string(),
        values: z.record(
          z.string(),
          z.object({
            value: z.union([z.number(), z.string(), z.array(z.string()).readonly()]),
            text: z
              .string()
              .meta({ description: 'The value written locale-neutrally (fixed decimals, no digit groups)' }),
            format: z
              .enum(['price', 'percent', 'signed_percent', 'whole_percent', 'decimal_1', 'decimal_2', 'integer'])
              .optional()
              .meta({ description: 'How the narrative writes a number in each locale; absent for words and lists' }),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'AnalysisOverview' });

/** One OHLCV candle as the chart draws it (open time as an ISO date-time). */
const CandleBarSchema = z.object({ time, open: n, high: n, low: n, close: n, volume: n }).meta({ id: 'CandleBar' });

export const CandlesSchema = z
  .object({
    ...ServedFields,
    as_of: time.meta({ description: 'Open time of the newest closed candle: the one the analysis is computed at' }),
    candles: z.array(CandleBarSchema).meta({
      description: 'The closed candles the analysis of the same query reads, oldest first',
    }),
    live: CandleBarSchema.nullable().meta({
      description: 'The candle still forming (null when none is: a closed session or a stale source)',
    }),
  })
  .meta({ id: 'AnalysisCandles' });

/** `GET /v2/analysis/{asset_id}` data. */
export type AnalysisResponse = z.output<typeof AnalysisSchema>;
/** `GET /v2/analysis/{asset_id}/overview` data. */
export type OverviewResponse = z.output<typeof OverviewSchema>;
/** `GET /v2/analysis/{asset_id}/candles` data. */
export type CandlesResponse = z.output<typeof CandlesSchema>;

// ---- tickers ----

const tickerFields = {
  venue: z.string(),
  pair: z.string(),
  asset_id: z.string().nullable(),
  market_type: MarketTypeSchema,
  base: z.string(),
  quote: z.string(),
  last: n,
  bid: nn,
  ask: nn,
  change_1h_pct: nn,
  change_24h_pct: nn,
  change_7d_pct: nn,
  volume_24h: nn.meta({ description: 'Base amount traded over 24h' }),
  quote_volume_usd: nn,
  time,
};
const fundingFields = {
  settle: z.string().nullable(),
  funding_rate: nn.meta({ description: 'Per funding interval, as a fraction (0.0001 = 0.01%)' }),
  funding_interval_hours: nn,
  next_funding_time: time.nullable(),
  mark_price: nn,
  index_price: nn,
};
export const CoinTickerSchema = z.object(tickerFields).meta({ id: 'CoinTicker' });
export const CoinFuturesTickerSchema = z
  .object({ ...tickerFields, ...fundingFields })
  .meta({ id: 'CoinFuturesTicker' });
export const MarketsSchema = z
  .object({
    asset: AssetRefSchema,
    venue: z.string(),
    markets: z.array(CoinFuturesTickerSchema).meta({ description: 'Spot rows carry null funding columns' }),
  })
  .meta({ id: 'AssetMarkets' });

// ---- assets ----

export const AssetRowSchema = z
  .object({
    id: z.string(),
    symbol: z.string(),
    name: z.string(),
    icon: z.string(),
    asset_class: AssetClassSchema,
    is_stablecoin: z.boolean(),
    price: nn,
    change_1h_pct: nn,
    change_24h_pct: nn,
    change_7d_pct: nn,
    volume_24h_usd: nn,
    market_type: MarketTypeSchema.nullable().meta({
      description: 'Market the row is priced from: spot, else derivatives',
    }),
    pair: z.string().nullable(),
    venue: z.string().nullable(),
  })
  .meta({ id: 'AssetRow' });

/** A row of `GET /v2/assets/` and of the favorites. */
export type AssetListRow = z.output<typeof AssetRowSchema>;

export const PopularAssetSchema = AssetRowSchema.extend({
  favorites: z.number().int().meta({ description: 'Users who favorite it' }),
}).meta({ id: 'PopularAsset' });

export const FavoriteStateSchema = z
  .object({ asset_id: z.string(), is_favorite: z.boolean() })
  .meta({ id: 'FavoriteState' });

/**
 * `GET /v2/assets/` (and favorites) query: the MCP package's `AssetListInput`, so REST and the
 * `list_assets` / `get_favorite_assets` tools parse with one schema.
 */
export { AssetListInput as AssetListQuery } from './requests.js';

// ---- exchanges ----

const ExchangeVolumeSchema = z
  .object({ spot_24h_usd: nn, derivatives_24h_usd: nn, total_24h_usd: nn })
  .meta({ id: 'ExchangeVolume', description: 'null where marketlens does not read the venue' });

const exchangeFields = {
  id: z.string(),
  name: z.string(),
  icon: z.string(),
  connected: z.boolean().meta({ description: 'The caller (or the API key owner) has a connection to it' }),
  volume: ExchangeVolumeSchema,
  affiliate_url: z.string().nullable().optional(),
  api_connection_exists: z.boolean().nullable().optional(),
  api_key_guide_url: z.string().nullable().optional(),
  promotion: PromotionSchema.nullable().optional().meta({
    description: 'AffiliatePromotion: the promotion of this exchange the caller has not claimed, else null',
  }),
  website_url: z.string().nullable().optional(),
  spot: z.boolean(),
  futures: z.boolean(),
  simulated: z.boolean(),
};
export const ExchangeSchema = z.object(exchangeFields).meta({ id: 'Exchange' });
export const ExchangeDetailSchema = z
  .object({
    ...exchangeFields,
    spot_pairs: z.number().int().min(0),
    futures_pairs: z.number().int().min(0),
    futures_open_interest_usd: nn.meta({
      description:
        'Summed open interest of its perpetuals in USD; null when the venue does not report it (unknown is null, never 0)',
    }),
    spot_tickers: z.array(CoinTickerSchema),
    futures_tickers: z.array(CoinFuturesTickerSchema),
    live: z.boolean().meta({
      description:
        'Whether the server read this venue for the answer. False where it reads no live data of it (the embedded default reaches no network): volumes and open interest are null, pair counts 0 and the ticker lists empty.',
    }),
  })
  .meta({ id: 'ExchangeDetail' });

// ---- analysis request ----

/** `connection` of `/v2/analysis*`: which exchange's market data to read. */
export const ConnectionQuerySchema = z.string().min(1).max(64).optional().meta({
  description:
    'Exchange id whose market data is read, as listed by `/v1/exchanges`; absent: the configured market sources. Any other id: 404 `UnknownExchange`; a venue that is unreachable or limiting us: 503 `ServiceUnavailable` (with `retry-after` when it said).',
  example: 'binance',
});

export const AnalysisQueryFields = {
  timeframe: timeframeSchema(TIMEFRAMES).default(DEFAULT_TIMEFRAME).meta({ description: 'Default d1 (free)' }),
  market_type: MarketTypeSchema.optional().meta({ description: 'A preference, not a filter' }),
  pair: z.string().min(1).max(64).optional().meta({ description: 'Venue-native instrument of the asset' }),
  limit: z.coerce
    .number()
    .int()
    .min(50)
    .max(CHART_DEPTH.pro)
    .default(CHART_DEPTH.free)
    .meta({ description: `Candles analysed; deeper than ${CHART_DEPTH.free} needs Pro (402, code 1005)` }),
  connection: ConnectionQuerySchema,
};
