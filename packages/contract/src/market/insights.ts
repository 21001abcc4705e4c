/** Wire schemas of the market insights and the Fear & Greed list. */
import { z } from 'zod';
import { FEAR_GREED_ZONES } from '../words.js';
import { AssetRefSchema, MarketTypeSchema } from './responses.js';

/** Coins in the insights' price and funding lists. */
export const INSIGHT_TOP = 10;
/** The simple average the breadth compares daily closes with. */
export const BREADTH_SMA = 50;
/** Rows of the Fear & Greed list: 50 by default, at most 100. */
export const FEAR_GREED_LIMIT = { default: 50, max: 100 } as const;

const nn = z.number().nullable();
const time = z.iso.datetime();
const ZoneSchema = z.enum(FEAR_GREED_ZONES);

export const LivePriceSchema = z
  .object({
    asset: AssetRefSchema,
    price: nn,
    change_1h_pct: nn,
    change_24h_pct: nn,
    change_7d_pct: nn,
    volume_24h_usd: nn,
    market_type: MarketTypeSchema.nullable(),
    pair: z.string().nullable(),
  })
  .meta({ id: 'InsightPrice' });

export const FundingRowSchema = z
  .object({
    asset: AssetRefSchema,
    pair: z.string(),
    settle: z.string().nullable(),
    volume_24h_usd: nn,
    funding_rate: nn.meta({ description: 'Per funding interval, as a fraction (0.0001 = 0.01%)' }),
    funding_interval_hours: nn,
    next_funding_time: time.nullable(),
    mark_price: nn,
    index_price: nn,
  })
  .meta({ id: 'InsightFunding' });

export const InsightsSchema = z
  .object({
    venue: z.string(),
    as_of: time.meta({ description: 'When the tickers were read' }),
    prices: z.array(LivePriceSchema).meta({ description: `The ${INSIGHT_TOP} coins with the largest 24h volume` }),
    funding: z.object({
      markets: z.number().int().meta({ description: 'Coin perpetuals quoted' }),
      positive: z.number().int(),
      negative: z.number().int(),
      average_rate: nn.meta({ description: 'Mean funding rate over the perpetuals (unweighted)' }),
      top: z.array(FundingRowSchema).meta({ description: `The ${INSIGHT_TOP} perpetuals with the largest volume` }),
    }),
    breadth: z
      .object({
        asset_class: z.literal('coins'),
        as_of: time.meta({ description: 'Open time of the newest closed d1 candle the breadth is computed on' }),
        sma_period: z.number().int(),
        assets: z
          .number()
          .int()
          .meta({ description: `Coins with at least ${BREADTH_SMA} daily closes` }),
        above_sma: z.number().int(),
        below_sma: z.number().int(),
        above_sma_share: nn.meta({ description: `Share 0..1 of coins closing above their ${BREADTH_SMA}-day SMA` }),
        advancers: z.number().int().meta({ description: 'Coins up over 24h' }),
        decliners: z.number().int(),
        unchanged: z.number().int(),
        advancers_share: nn.meta({ description: 'Advancers over coins with a 24h change, 0..1' }),
      })
      .meta({ description: 'Over the coins, stablecoins left out' }),
  })
  .meta({ id: 'Insights' });

export const FearGreedRowSchema = z
  .object({
    asset: AssetRefSchema,
    is_stablecoin: z.boolean(),
    score: z.number().int().min(0).max(100).nullable(),
    zone: ZoneSchema.nullable(),
    price: nn,
    change_24h_pct: nn,
    volume_24h_usd: nn,
    funding_rate: nn.meta({ description: 'Perpetual funding fed into the score; null without a perpetual' }),
  })
  .meta({ id: 'FearGreedRow' });

export const FearGreedListSchema = z
  .object({
    timeframe: z.literal('d1'),
    as_of: time.meta({ description: 'Open time of the newest closed d1 candle scored' }),
    total: z.number().int().meta({ description: 'Assets matching the filters, before `limit`' }),
    limit: z.number().int().meta({ description: 'The limit applied (after the cap)' }),
    assets: z.array(FearGreedRowSchema),
  })
  .meta({ id: 'FearGreedList' });
