/**
 * The serializers of the pilot's trades and open positions, as REST (`/pilot/spectate`) answers them
 * and the MCP tools return them. Each takes a structural source (only the fields it reads); times
 * given as ms since the epoch are published as ISO 8601 UTC date-times.
 */
import type { z } from 'zod';
import type { AssetRefSchema } from '../market/responses.js';
import { iso, isoOrNull } from '../time.js';
import type { PilotOpenPositionSchema, PilotTradeSchema, PlanOutcome } from './responses.js';

export type PilotTrade = z.output<typeof PilotTradeSchema>;
export type PilotOpenPosition = z.output<typeof PilotOpenPositionSchema>;

/** The asset of a pilot row: present only when the asset is in the coin universe. */
export type PilotAsset = z.output<typeof AssetRefSchema>;

/** A stored pilot trade; times in ms since the epoch. */
export interface PilotTradeSource {
  trade_index: number;
  asset_id: string;
  side: 'long' | 'short';
  timeframe: string;
  pair: string;
  outcome: PlanOutcome;
  opened_at: number;
  closed_at: number | null;
  entry_price: number;
  exit_price: number | null;
  stop_loss: number;
  take_profits: readonly { price: number; size_pct: number }[];
  quantity: number;
  margin_usd: number;
  leverage: number;
  realized_r: number | null;
  pnl_usd: number | null;
  return_on_margin_pct: number | null;
  legs: readonly {
    target: number;
    size_pct: number;
    exit: 'target' | 'stop' | 'time' | null;
    exit_price: number | null;
    exit_time: number | null;
  }[];
}

const assetField = (asset: PilotAsset | null | undefined) => (asset ? { asset } : {});

/**
 * A closed pilot trade on the wire (the track record's trades, best and worst). A figure a closed
 * trade always has and the record lacks reads as the trade not having moved: closed at its opening,
 * exited at its entry, 0 R, 0 USD, 0%.
 */
export function pilotTradeWire(t: PilotTradeSource, asset: PilotAsset | null | undefined): PilotTrade {
  return {
    trade_index: t.trade_index,
    asset_id: t.asset_id,
    ...assetField(asset),
    side: t.side,
    timeframe: t.timeframe,
    pair: t.pair,
    outcome: t.outcome,
    opened_at: iso(t.opened_at),
    closed_at: iso(t.closed_at ?? t.opened_at),
    entry_price: t.entry_price,
    exit_price: t.exit_price ?? t.entry_price,
    stop_loss: t.stop_loss,
    take_profit: t.take_profits[0]?.price ?? null,
    take_profits: [...t.take_profits],
    quantity: t.quantity,
    margin_usd: t.margin_usd,
    leverage: t.leverage,
    realized_r: t.realized_r ?? 0,
    pnl_usd: t.pnl_usd ?? 0,
    return_on_margin_pct: t.return_on_margin_pct ?? 0,
    legs: t.legs.map((l) => ({
      target: l.target,
      size_pct: l.size_pct,
      exit: l.exit,
      exit_price: l.exit_price,
      exit_at: isoOrNull(l.exit_time),
    })),
  };
}

/** A stored open pilot trade; `opened_at` in ms since the epoch. */
export type PilotOpenTradeSource = Pick<
  PilotTradeSource,
  | 'trade_index'
  | 'asset_id'
  | 'side'
  | 'timeframe'
  | 'pair'
  | 'opened_at'
  | 'entry_price'
  | 'stop_loss'
  | 'take_profits'
  | 'quantity'
  | 'margin_usd'
  | 'leverage'
>;

/** What the pilot reads of an open trade now: its closed share, its PnL and its excursion (null when unknown). */
export interface PilotOpenPositionLive {
  closed_pct: number;
  realized_pnl_usd: number;
  current_price: number | null;
  unrealized_pnl_usd: number | null;
  mfe_r: number | null;
  mae_r: number | null;
}

/** An open pilot position on the wire (`/pilot/spectate`, MCP `get_pilot_spectate`). */
export function pilotOpenPositionWire(
  t: PilotOpenTradeSource,
  asset: PilotAsset | null | undefined,
  live: PilotOpenPositionLive,
): PilotOpenPosition {
  return {
    trade_index: t.trade_index,
    asset_id: t.asset_id,
    ...assetField(asset),
    side: t.side,
    timeframe: t.timeframe,
    pair: t.pair,
    opened_at: iso(t.opened_at),
    entry_price: t.entry_price,
    stop_loss: t.stop_loss,
    take_profit: t.take_profits[0]?.price ?? null,
    take_profits: [...t.take_profits],
    quantity: t.quantity,
    margin_usd: t.margin_usd,
    leverage: t.leverage,
    closed_pct: live.closed_pct,
    realized_pnl_usd: live.realized_pnl_usd,
    current_price: live.current_price,
    unrealized_pnl_usd: live.unrealized_pnl_usd,
    mfe_r: live.mfe_r,
    mae_r: live.mae_r,
  };
}
