import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { AssetRefSchema, envelopeOf, MarketTypeSchema, ok } from '@marketlens/contract';
import { FEAR_GREED_ZONES } from '@marketlens/core';
import type { AppEnv } from '../../env.js';
import { SESSION_OR_API_KEY } from '../../middleware/auth/index.js';
import {
  BREADTH_SMA,
  FEAR_GREED_LIMIT,
  FEAR_GREED_SORTS,
  fearGreedListOf,
  INSIGHT_TOP,
  insightsOf,
} from '../../services/insights.js';
import { operation } from '../operation.js';

const nn = z.number().nullable();
const time = z.iso.datetime();
const ZoneSchema = z.enum(FEAR_GREED_ZONES.map((x) => x.zone) as [string, ...string[]]);

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

// ---- /v2/insights ----

const LivePriceSchema = z
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
  .openapi('InsightPrice');

const FundingRowSchema = z
  .object({
    asset: AssetRefSchema,
    pair: z.string(),
    settle: z.string().nullable(),
    volume_24h_usd: nn,
    funding_rate: nn.openapi({ description: 'Per funding interval, as a fraction (0.0001 = 0.01%)' }),
    funding_interval_hours: nn,
    next_funding_time: time.nullable(),
    mark_price: nn,
    index_price: nn,
  })
  .openapi('InsightFunding');

const InsightsSchema = z
  .object({
    venue: z.string(),
    as_of: time.openapi({ description: 'When the tickers were read' }),
    prices: z.array(LivePriceSchema).openapi({ description: `The ${INSIGHT_TOP} coins with the largest 24h volume` }),
    funding: z.object({
      markets: z.number().int().openapi({ description: 'Coin perpetuals quoted' }),
      positive: z.number().int(),
      negative: z.number().int(),
      average_rate: nn.openapi({ description: 'Mean funding rate over the perpetuals (unweighted)' }),
      top: z.array(FundingRowSchema).openapi({ description: `The ${INSIGHT_TOP} perpetuals with the largest volume` }),
    }),
    breadth: z
      .object({
        asset_class: z.literal('coins'),
        as_of: time.openapi({ description: 'Open time of the live d1 candle' }),
        sma_period: z.number().int(),
        assets: z
          .number()
          .int()
          .openapi({ description: `Coins with at least ${BREADTH_SMA} daily closes` }),
        above_sma: z.number().int(),
        below_sma: z.number().int(),
        above_sma_share: nn.openapi({ description: `Share 0..1 of coins closing above their ${BREADTH_SMA}-day SMA` }),
        advancers: z.number().int().openapi({ description: 'Coins up over 24h' }),
        decliners: z.number().int(),
        unchanged: z.number().int(),
        advancers_share: nn.openapi({ description: 'Advancers over coins with a 24h change, 0..1' }),
      })
      .openapi({ description: 'Over the coins, stablecoins left out' }),
  })
  .openapi('Insights');

const insightsRoute = operation(SESSION_OR_API_KEY, {
  method: 'get',
  path: '/v2/insights',
  operationId: 'getInsights',
  tags: ['Insights'],
  summary: 'Market insights: live prices of the top coins, perpetual funding, market breadth',
  description:
    'Tickers are read at most once a minute; breadth compares each coin’s live daily close with its 50-day simple average and counts advancers and decliners on the 24h change.',
  responses: { 200: json(envelopeOf(InsightsSchema, 'InsightsEnvelope'), 'The insights') },
});

// ---- /v2/insights/fear_greed ----

const FearGreedQuery = z.object({
  zone: ZoneSchema.optional().openapi({ description: 'Only assets in this Fear & Greed zone' }),
  min_volume: z.coerce
    .number()
    .min(0)
    .optional()
    .openapi({ description: 'Smallest 24h USD volume; assets without a volume are left out when given' }),
  exclude_stables: z
    .enum(['true', 'false'])
    .default('true')
    .openapi({ description: 'Leave stablecoins out (default `true`)' }),
  sort: z.enum(FEAR_GREED_SORTS).default('score').openapi({ description: 'Missing values last, ties by asset id' }),
  sort_dir: z.enum(['asc', 'desc']).default('desc'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(FEAR_GREED_LIMIT.default)
    .openapi({
      description: `Default ${FEAR_GREED_LIMIT.default}; capped at ${FEAR_GREED_LIMIT.max} (larger values are clamped)`,
    }),
});

const FearGreedRowSchema = z
  .object({
    asset: AssetRefSchema,
    is_stablecoin: z.boolean(),
    score: z.number().int().min(0).max(100).nullable(),
    zone: ZoneSchema.nullable(),
    price: nn,
    change_24h_pct: nn,
    volume_24h_usd: nn,
    funding_rate: nn.openapi({ description: 'Perpetual funding fed into the score; null without a perpetual' }),
  })
  .openapi('FearGreedRow');

const FearGreedListSchema = z
  .object({
    timeframe: z.literal('d1'),
    as_of: time.openapi({ description: 'Open time of the live d1 candle scored' }),
    total: z.number().int().openapi({ description: 'Assets matching the filters, before `limit`' }),
    limit: z.number().int().openapi({ description: 'The limit applied (after the cap)' }),
    assets: z.array(FearGreedRowSchema),
  })
  .openapi('FearGreedList');

const fearGreedRoute = operation(SESSION_OR_API_KEY, {
  method: 'get',
  path: '/v2/insights/fear_greed',
  operationId: 'listFearGreed',
  tags: ['Insights'],
  summary: 'Top crypto assets ranked by Fear & Greed score',
  description:
    'The Fear & Greed of each coin on its newest daily candles (the live one included), with the funding of its perpetual when it has one. Sorted by `sort` (`score` by default, or `volume`, `change_24h`) in `sort_dir` (`desc` by default). One computation is served for up to a minute.',
  request: { query: FearGreedQuery },
  responses: { 200: json(envelopeOf(FearGreedListSchema, 'FearGreedListEnvelope'), 'The ranked assets') },
});

export function registerInsightRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(insightsRoute, async (c) => c.json(ok(await insightsOf(c.get('deps'))), 200));
  app.openapi(fearGreedRoute, async (c) => {
    const { zone, min_volume, exclude_stables, sort, sort_dir, limit } = c.req.valid('query');
    const result = await fearGreedListOf(c.get('deps'), {
      ...(zone === undefined ? {} : { zone: zone as (typeof FEAR_GREED_ZONES)[number]['zone'] }),
      ...(min_volume === undefined ? {} : { min_volume }),
      exclude_stables: exclude_stables === 'true',
      sort,
      sort_dir,
      limit,
    });
    return c.json(ok(result), 200);
  });
}
