import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { AssetRefSchema, envelopeOf, ok } from '@marketlens/contract';
import { SESSION_OR_API_KEY } from '../../auth/authorize.js';
import { marketOf } from '../../market/market.js';
import type { AppEnv } from '../../platform/deps.js';
import { operation } from '../../platform/operation.js';
import { CHART_DEPTH, DEFAULT_TIMEFRAME, TIMEFRAMES } from '../../platform/product-rules.js';
import { PLAN_OUTCOMES } from '../../storage/plans-types.js';
import { assetRef, checkAnalysisAccess, requireAsset } from '../analysis.js';
import { planTrackRecord, RECENT_PLANS, recentPlans } from '../plans/track-record.js';

const nn = z.number().nullable();
const time = z.iso.datetime();
const Outcome = z.enum(PLAN_OUTCOMES as unknown as [string, ...string[]]);

const CalibrationBucketSchema = z
  .object({
    confidence_min: z.number(),
    confidence_max: z.number(),
    plans: z.number().int(),
    resolved: z.number().int().openapi({ description: 'Entered and closed: tp_hit, stopped_out or time_stopped' }),
    hits: z.number().int().openapi({ description: 'Resolved with tp_hit' }),
    hit_rate: nn,
    mean_confidence: nn.openapi({ description: 'Mean confidence of the resolved plans; compare with hit_rate' }),
  })
  .openapi('CalibrationBucket');

const PublishedPlanSchema = z
  .object({
    id: z.string(),
    timeframe: z.string(),
    side: z.enum(['long', 'short']),
    confidence: z.number().openapi({ description: 'The signal confidence (0..1) behind the plan' }),
    published_at: time.openapi({ description: 'When the service published it, before any outcome' }),
    candle_time: time.openapi({ description: 'Open time of the candle it was computed on' }),
    pair: z.string(),
    market_type: z.enum(['spot', 'derivatives']),
    entry_zone: z.object({ low: z.number(), high: z.number() }).nullable(),
    entry_price: nn,
    stop_loss: nn,
    take_profits: z.array(z.object({ price: z.number(), size_pct: z.number() })),
    outcome: Outcome,
    entered_at: time.nullable(),
    fill_price: nn,
    closed_at: time.nullable(),
    targets_hit: z.number().int(),
    realized_r: nn.openapi({ description: 'Size-weighted R after the 0.20% cost; null until closed' }),
  })
  .openapi('PublishedPlan');

const TrackRecordSchema = z
  .object({
    asset: AssetRefSchema,
    timeframe: z.enum(TIMEFRAMES),
    plans: z.number().int(),
    counts: z.object(Object.fromEntries(PLAN_OUTCOMES.map((o) => [o, z.number().int()]))),
    resolved: z.number().int(),
    hit_rate: nn.openapi({ description: 'tp_hit / resolved; null when none resolved' }),
    mean_realized_r: nn.openapi({ description: 'Mean realized R (after the cost) of resolved plans' }),
    total_realized_r: z.number(),
    cost_pct: z.number().openapi({ description: 'Round-trip cost deducted from every outcome, % of the fill' }),
    calibration: z.array(CalibrationBucketSchema),
    recent: z.array(PublishedPlanSchema).openapi({ description: `The newest ${RECENT_PLANS} plans, newest first` }),
  })
  .openapi('PlanTrackRecord');

const trackRecordRoute = operation(
  SESSION_OR_API_KEY,
  {
    method: 'get',
    path: '/v2/analysis/{asset_id}/track-record',
    operationId: 'getAssetTrackRecord',
    tags: ['Analysis'],
    summary: "The service's own track record on an asset: its published plans' outcomes",
    description:
      'Every plan the service publishes (a plan with a trade, once per asset, timeframe and candle it was computed on) is recorded at publication and scored afterwards on the candles that open after it, with the 0.20% round-trip cost: `pending`, then `entered` or `expired`; an entered plan ends `tp_hit` (target 1 reached), `stopped_out` or `time_stopped`. Counts by outcome, mean realized R, and calibration (confidence buckets against the hit rate). The timeframe gate of the analysis applies (402, code 1004). Unknown asset: 400 `UnknownAsset`.',
    request: {
      params: z.object({
        asset_id: z
          .string()
          .min(1)
          .max(128)
          .openapi({ param: { name: 'asset_id', in: 'path' }, example: 'bitcoin' }),
      }),
      query: z.object({
        timeframe: z.enum(TIMEFRAMES).default(DEFAULT_TIMEFRAME).openapi({ description: 'Default d1 (free)' }),
      }),
    },
    responses: {
      200: {
        description: 'The track record',
        content: { 'application/json': { schema: envelopeOf(TrackRecordSchema, 'PlanTrackRecordEnvelope') } },
      },
    },
  },
  [402],
);

export function registerTrackRecordRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(trackRecordRoute, async (c) => {
    const deps = c.get('deps');
    const { timeframe } = c.req.valid('query');
    const asset = requireAsset(deps, c.req.valid('param').asset_id, marketOf(deps));
    checkAnalysisAccess(asset, { timeframe, limit: CHART_DEPTH.free }, c.get('caller'), c.get('client'));
    const [record, recent] = await Promise.all([
      planTrackRecord(deps.storage, asset.id, timeframe),
      recentPlans(deps.storage, asset.id, timeframe),
    ]);
    return c.json(ok({ asset: assetRef(asset), ...record, timeframe, recent }), 200);
  });
}
