import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { AssetRefSchema, envelopeOf, ok } from '@marketlens/contract';
import type { Context } from 'hono';
import type { AppEnv } from '../env.js';
import { AppError } from '../errors/app-error.js';
import { requireUser, SESSION_ONLY } from '../middleware/auth/index.js';
import { PILOT_PAGE_SIZE, spectateOverview, spectateTrackRecord } from '../services/pilot/views.js';
import { pilotEligible } from '../services/promotions/eligibility.js';
import { PLAN_OUTCOMES } from '../storage/plans-types.js';
import { operation } from './operation.js';

const nn = z.number().nullable();
const time = z.iso.datetime();
const Side = z.enum(['long', 'short']);
const TargetSchema = z.object({ price: z.number(), size_pct: z.number() });
const assetField = {
  asset: AssetRefSchema.optional().openapi({ description: 'Present only when the asset is in the coin universe' }),
};

const OpenPositionSchema = z
  .object({
    trade_index: z.number().int(),
    asset_id: z.string(),
    ...assetField,
    side: Side,
    timeframe: z.string(),
    pair: z.string(),
    opened_at: time,
    entry_price: z.number(),
    stop_loss: z.number(),
    take_profit: nn.openapi({ description: 'Target 1 (70% of the position closes there with two targets)' }),
    take_profits: z.array(TargetSchema),
    quantity: z.number(),
    margin_usd: z.number(),
    leverage: z.number(),
    closed_pct: z.number().openapi({ description: 'Share already closed (70 after target 1 of two)' }),
    realized_pnl_usd: z.number(),
    current_price: nn.openapi({ description: 'Null when the market cannot be priced now' }),
    unrealized_pnl_usd: nn,
    mfe_r: nn.openapi({ description: 'Maximum favourable excursion since entry, in R (live)' }),
    mae_r: nn.openapi({ description: 'Maximum adverse excursion since entry, in R (live)' }),
  })
  .openapi('PilotOpenPosition');

const SpectateSchema = z
  .object({
    last_active_at: time.optional().openapi({
      description: 'Last run of the bot; absent when unknown (it has never run). Absence is not a stall.',
    }),
    timeframe: z.string(),
    universe: z.array(z.object({ asset_id: z.string(), ...assetField })),
    starting_equity_usd: z.number(),
    equity_usd: z.number().openapi({ description: 'Starting equity plus realized PnL of closed trades' }),
    realized_pnl_usd: z.number(),
    risk_per_trade_usd: z.number(),
    leverage: z.number(),
    cost_pct: z.number(),
    closed_trades: z.number().int(),
    open_positions: z.array(OpenPositionSchema),
  })
  .openapi('PilotSpectate');

const TradeSchema = z
  .object({
    trade_index: z.number().int().openapi({ description: 'The `before_trade` index: 1, 2, ... in opening order' }),
    asset_id: z.string(),
    ...assetField,
    side: Side,
    timeframe: z.string(),
    pair: z.string(),
    outcome: z.enum(PLAN_OUTCOMES as unknown as [string, ...string[]]),
    opened_at: time,
    closed_at: time,
    entry_price: z.number(),
    exit_price: z.number().openapi({ description: 'Size-weighted exit of the legs' }),
    stop_loss: z.number(),
    take_profit: nn.openapi({ description: 'Target 1' }),
    take_profits: z.array(TargetSchema),
    quantity: z.number(),
    margin_usd: z.number(),
    leverage: z.number(),
    realized_r: z.number(),
    pnl_usd: z.number().openapi({ description: 'After the 0.20% round-trip cost' }),
    return_on_margin_pct: z.number(),
    legs: z.array(
      z.object({
        target: z.number().int(),
        size_pct: z.number(),
        exit: z.enum(['target', 'stop', 'time']).nullable(),
        exit_price: nn,
        exit_at: time.nullable(),
      }),
    ),
  })
  .openapi('PilotTrade');

const figures = {
  trades: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  win_rate: nn,
  pnl_usd: z.number(),
  return_on_margin_pct: z.number().openapi({ description: 'Sum of the trades’ returns on margin' }),
  mean_realized_r: nn,
};

const SpectateTrackRecordSchema = z
  .object({
    page_size: z.number().int(),
    trades: z.array(TradeSchema).openapi({ description: 'Closed trades of the page, oldest first' }),
    trades_truncated: z.boolean().openapi({ description: 'Older trades exist before this page' }),
    next_before_trade: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'The `before_trade` value of the previous (older) page; null when none' }),
    curve: z.array(
      z.object({
        trade_index: z.number().int(),
        time: time,
        return_on_margin_pct: z.number(),
        cumulative_return_on_margin_pct: z.number().openapi({ description: 'Sum from the first trade' }),
        equity_usd: z.number(),
      }),
    ),
    best_trade: TradeSchema.nullable(),
    worst_trade: TradeSchema.nullable(),
    by_asset: z.array(z.object({ asset_id: z.string(), ...assetField, ...figures })),
    summary: z.object({
      ...figures,
      starting_equity_usd: z.number(),
      equity_usd: z.number(),
      cumulative_return_on_margin_pct: z.number(),
    }),
  })
  .openapi('PilotTrackRecord');

const ELIGIBILITY =
  'Session only. Eligibility (section 4.10): 30-day affiliate volume at or above the threshold on the supported affiliate exchanges; an ineligible caller gets 403 `PilotNotEligible`.';

const spectateRoute = operation(SESSION_ONLY, {
  method: 'get',
  path: '/pilot/spectate',
  operationId: 'getPilotSpectate',
  tags: ['Pilot'],
  summary: "The pilot's open positions with live excursions, and its account",
  description: `The pilot is the service's paper-trading bot: it takes the service's own published plans on its universe, 70% out at target 1 and 30% at target 2 or the stop, with the 0.20% cost. ${ELIGIBILITY}`,
  responses: {
    200: {
      description: 'The pilot now',
      content: { 'application/json': { schema: envelopeOf(SpectateSchema, 'PilotSpectateEnvelope') } },
    },
  },
});

const trackRecordRoute = operation(SESSION_ONLY, {
  method: 'get',
  path: '/pilot/spectate/track-record',
  operationId: 'getPilotSpectateTrackRecord',
  tags: ['Pilot'],
  summary: "The pilot's closed trades, equity curve, best and worst trade, per-asset figures",
  description: `Pages of ${PILOT_PAGE_SIZE} closed trades, oldest first; \`before_trade=<index>\` returns the page ending before that trade index, and \`trades_truncated\` says older trades exist (ask again with \`next_before_trade\`). Best, worst, by_asset and summary cover every closed trade. ${ELIGIBILITY}`,
  request: {
    query: z.object({
      before_trade: z.coerce
        .number()
        .int()
        .min(1)
        .max(Number.MAX_SAFE_INTEGER)
        .optional()
        .openapi({ description: 'Page backwards: trades with an index below this' }),
    }),
  },
  responses: {
    200: {
      description: 'The track record',
      content: {
        'application/json': { schema: envelopeOf(SpectateTrackRecordSchema, 'PilotTrackRecordEnvelope') },
      },
    },
  },
});

/** 403 `PilotNotEligible` unless the caller qualifies (the injected rule, else promotions' volume standing). */
async function requireEligible(c: Context<AppEnv>): Promise<void> {
  const deps = c.get('deps');
  const user = requireUser(c.get('caller')).user;
  const eligible = deps.isPilotEligible
    ? await deps.isPilotEligible(user.id)
    : await pilotEligible(deps.storage, user.id, deps.now(), {
        ...(deps.config.affiliateVolumeThresholdUsd === undefined
          ? {}
          : { thresholdUsd: deps.config.affiliateVolumeThresholdUsd }),
      });
  if (!eligible) {
    throw new AppError(
      'PilotNotEligible',
      'Pilot spectate needs 30-day affiliate volume at or above the threshold on a supported affiliate exchange',
    );
  }
}

export function registerPilotRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(spectateRoute, async (c) => {
    await requireEligible(c);
    return c.json(ok(await spectateOverview(c.get('deps'))), 200);
  });
  app.openapi(trackRecordRoute, async (c) => {
    await requireEligible(c);
    return c.json(ok(await spectateTrackRecord(c.get('deps'), c.req.valid('query').before_trade)), 200);
  });
}
