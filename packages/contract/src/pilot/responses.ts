/** Wire schemas of the pilot: the paper-trading bot users spectate. */
import { z } from 'zod';
import { AssetRefSchema } from '../market/responses.js';

/** How a published plan ended. */
export const PLAN_OUTCOMES = ['pending', 'entered', 'tp_hit', 'stopped_out', 'time_stopped', 'expired'] as const;
export type PlanOutcome = (typeof PLAN_OUTCOMES)[number];

const nn = z.number().nullable();
const time = z.iso.datetime();
const Side = z.enum(['long', 'short']);
const TargetSchema = z.object({ price: z.number(), size_pct: z.number() });
const assetField = {
  asset: AssetRefSchema.optional().meta({ description: 'Present only when the asset is in the coin universe' }),
};

export const PilotOpenPositionSchema = z
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
    take_profit: nn.meta({ description: 'Target 1 (70% of the position closes there with two targets)' }),
    take_profits: z.array(TargetSchema),
    quantity: z.number(),
    margin_usd: z.number(),
    leverage: z.number(),
    closed_pct: z.number().meta({ description: 'Share already closed (70 after target 1 of two)' }),
    realized_pnl_usd: z.number(),
    current_price: nn.meta({ description: 'Null when the market cannot be priced now' }),
    unrealized_pnl_usd: nn,
    mfe_r: nn.meta({ description: 'Maximum favourable excursion since entry, in R (live)' }),
    mae_r: nn.meta({ description: 'Maximum adverse excursion since entry, in R (live)' }),
  })
  .meta({ id: 'PilotOpenPosition' });

export const PilotSpectateSchema = z
  .object({
    last_active_at: time.optional().meta({
      description: 'Last run of the bot; absent when unknown (it has never run). Absence is not a stall.',
    }),
    timeframe: z.string(),
    universe: z.array(z.object({ asset_id: z.string(), ...assetField })),
    starting_equity_usd: z.number(),
    equity_usd: z.number().meta({ description: 'Starting equity plus realized PnL of closed trades' }),
    realized_pnl_usd: z.number(),
    risk_per_trade_usd: z.number(),
    leverage: z.number(),
    cost_pct: z.number(),
    closed_trades: z.number().int(),
    open_positions: z.array(PilotOpenPositionSchema),
  })
  .meta({ id: 'PilotSpectate' });

export const PilotTradeSchema = z
  .object({
    trade_index: z.number().int().meta({ description: 'The `before_trade` index: 1, 2, ... in opening order' }),
    asset_id: z.string(),
    ...assetField,
    side: Side,
    timeframe: z.string(),
    pair: z.string(),
    outcome: z.enum(PLAN_OUTCOMES),
    opened_at: time,
    closed_at: time,
    entry_price: z.number(),
    exit_price: z.number().meta({ description: 'Size-weighted exit of the legs' }),
    stop_loss: z.number(),
    take_profit: nn.meta({ description: 'Target 1' }),
    take_profits: z.array(TargetSchema),
    quantity: z.number(),
    margin_usd: z.number(),
    leverage: z.number(),
    realized_r: z.number(),
    pnl_usd: z.number().meta({ description: 'After the 0.20% round-trip cost' }),
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
  .meta({ id: 'PilotTrade' });

const figures = {
  trades: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  win_rate: nn,
  pnl_usd: z.number(),
  return_on_margin_pct: z.number().meta({ description: 'Sum of the trades’ returns on margin' }),
  mean_realized_r: nn,
};

export const PilotTrackRecordSchema = z
  .object({
    page_size: z.number().int(),
    trades: z.array(PilotTradeSchema).meta({ description: 'Closed trades of the page, oldest first' }),
    trades_truncated: z.boolean().meta({ description: 'Older trades exist before this page' }),
    next_before_trade: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The `before_trade` value of the previous (older) page; null when none' }),
    curve: z.array(
      z.object({
        trade_index: z.number().int(),
        time: time,
        return_on_margin_pct: z.number(),
        cumulative_return_on_margin_pct: z.number().meta({ description: 'Sum from the first trade' }),
        equity_usd: z.number(),
      }),
    ),
    best_trade: PilotTradeSchema.nullable(),
    worst_trade: PilotTradeSchema.nullable(),
    by_asset: z.array(z.object({ asset_id: z.string(), ...assetField, ...figures })),
    summary: z.object({
      ...figures,
      starting_equity_usd: z.number(),
      equity_usd: z.number(),
      cumulative_return_on_margin_pct: z.number(),
    }),
  })
  .meta({ id: 'PilotTrackRecord' });
