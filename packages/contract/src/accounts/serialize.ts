/**
 * The serializers of the account resources: one function per resource turns what the service holds
 * into the wire object REST answers, the MCP tools return as `structuredContent` and the CLI prints
 * with `--json`. Each takes a structural source (only the fields it reads), so a caller's records
 * fit it without this package knowing them; times given as ms since the epoch are published as
 * ISO 8601 UTC date-times.
 */
import type { z } from 'zod';
import { fieldsOf, pickFields } from '../fields.js';
import type { MarketTypeName } from '../market/requests.js';
import { iso, isoOrNull } from '../time.js';
import type { ConnectionPosition, UserConnection } from './connections.js';
import type { PositionAnalysisTimeframe } from './requests.js';
import {
  BalanceSchema,
  type OrderSchema,
  type PositionAnalysisSchema,
  PositionSchema,
  type TradeSchema,
} from './responses.js';

export type Position = z.output<typeof PositionSchema>;
export type Balance = z.output<typeof BalanceSchema>;
export type Trade = z.output<typeof TradeSchema>;
export type Order = z.output<typeof OrderSchema>;
export type PositionAnalysis = z.output<typeof PositionAnalysisSchema>;

/** The tracked asset an account row maps to; null when it maps to none. */
export type AccountAsset = Position['asset'];

/**
 * A priced position: the figures the portfolio arithmetic computes (core's `PositionExtended`,
 * whose times are already ISO date-times).
 */
export type PositionSource = Position;

const POSITION_FIELDS = fieldsOf(PositionSchema);

/** A position on the wire (`GET /v2/positions`, MCP `get_positions`): its schema's fields; `visible` is false until the caller says otherwise. */
export function positionWire(p: PositionSource): Position {
  return { ...pickFields(POSITION_FIELDS, p), visible: false };
}

/** A priced balance (core's `Balance`). */
export type BalanceSource = Balance;

const BALANCE_FIELDS = fieldsOf(BalanceSchema);

/** A balance on the wire (the balances routes, MCP `get_balances`): its schema's fields. */
export function balanceWire(b: BalanceSource): Balance {
  return pickFields(BALANCE_FIELDS, b);
}

/** A fill as the portfolio arithmetic publishes it (core's `Trade`), without its asset block. */
export type TradeSource = Omit<Trade, 'asset'>;

/** A fill on the wire (`GET /v1/trades`, MCP `get_trades`), with the asset block its `asset_id` maps to. */
export function tradeWire(t: TradeSource, asset: AccountAsset): Trade {
  return {
    external_id: t.external_id,
    user_connection_id: t.user_connection_id,
    connection_id: t.connection_id,
    order_id: t.order_id,
    pair: t.pair,
    asset_id: t.asset_id,
    coin_id: t.coin_id,
    side: t.side,
    price: t.price,
    size: t.size,
    fee: t.fee,
    fee_currency: t.fee_currency,
    pnl: t.pnl,
    executed_at: t.executed_at,
    asset,
  };
}

/** An order aggregated from its fills (core's `OrderExtended`), without asset blocks. */
export type OrderSource = Omit<Order, 'asset' | 'fills'> & { fills: readonly TradeSource[] };

/**
 * An order on the wire (`GET /v1/orders`, MCP `get_orders`): the order and each of its fills carry
 * the asset block `assetOf` gives for their `asset_id`.
 */
export function orderWire(o: OrderSource, assetOf: (assetId: string | null) => AccountAsset): Order {
  return {
    id: o.id,
    order_id: o.order_id,
    user_connection_id: o.user_connection_id,
    connection_id: o.connection_id,
    pair: o.pair,
    asset_id: o.asset_id,
    coin_id: o.coin_id,
    side: o.side,
    price: o.price,
    size: o.size,
    fee: o.fee,
    fee_currency: o.fee_currency,
    pnl: o.pnl,
    fills_count: o.fills_count,
    first_fill_at: o.first_fill_at,
    last_fill_at: o.last_fill_at,
    fills: o.fills.map((t) => tradeWire(t, assetOf(t.asset_id))),
    asset: assetOf(o.asset_id),
  };
}

/** A stored connection: its sync state, times in ms since the epoch. */
export interface ConnectionSource {
  id: string;
  /** The exchange id (`exchange_id` on the wire). */
  venue: string;
  label: string | null;
  created_at: number;
  last_sync_at: number | null;
  last_success_at: number | null;
  last_error: string | null;
  failures: number;
  next_sync_at: number;
  fills_synced_until: number | null;
  protective_levels_synced_at: number | null;
}

/** A stored open position of a connection, as its last sync wrote it; times in ms since the epoch. */
export interface ConnectionPositionSource {
  id: string;
  pair: string;
  asset_id: string | null;
  market_type: 'spot' | 'derivatives';
  side: 'long' | 'short';
  size: number;
  entry_price: number;
  mark_price: number | null;
  margin: number | null;
  leverage: number | null;
  liquidation_price: number | null;
  unrealized_pnl: number | null;
  settle: string | null;
  stop_loss: number | null;
  take_profit: number | null;
  protective_levels_synced_at: number | null;
  funding_since_open: number | null;
  notes: string;
  opened_at: number | null;
  updated_at: number;
}

/** An open position of a connection on the wire, as stored by the last sync. */
export function connectionPositionWire(p: ConnectionPositionSource): ConnectionPosition {
  return {
    id: p.id,
    pair: p.pair,
    asset_id: p.asset_id,
    market_type: p.market_type,
    side: p.side,
    size: p.size,
    entry_price: p.entry_price,
    mark_price: p.mark_price,
    margin: p.margin,
    leverage: p.leverage,
    liquidation_price: p.liquidation_price,
    unrealized_pnl: p.unrealized_pnl,
    settle: p.settle,
    stop_loss: p.stop_loss,
    take_profit: p.take_profit,
    protective_levels_synced_at: isoOrNull(p.protective_levels_synced_at),
    funding_since_open: p.funding_since_open,
    notes: p.notes,
    opened_at: isoOrNull(p.opened_at),
    updated_at: iso(p.updated_at),
  };
}

/**
 * A connection on the wire (`/v1/connections/user`), never its credentials. Its sync status is
 * `pending` before the first attempt, then `ok` or `error` by the last attempt's outcome.
 */
export function connectionWire(c: ConnectionSource, positions: readonly ConnectionPositionSource[]): UserConnection {
  return {
    id: c.id,
    exchange_id: c.venue,
    label: c.label,
    created_at: iso(c.created_at),
    sync: {
      status: c.last_sync_at === null ? 'pending' : c.last_error === null ? 'ok' : 'error',
      last_sync_at: isoOrNull(c.last_sync_at),
      last_success_at: isoOrNull(c.last_success_at),
      last_error: c.last_error,
      failures: c.failures,
      next_sync_at: iso(c.next_sync_at),
      fills_synced_until: isoOrNull(c.fills_synced_until),
      protective_levels_synced_at: isoOrNull(c.protective_levels_synced_at),
    },
    positions: positions.map(connectionPositionWire),
  };
}

type Assessed = Omit<
  PositionAnalysis,
  'position_id' | 'asset' | 'pair' | 'candles' | 'timeframe' | 'as_of' | 'timing' | 'invalidation'
>;
type ReferencePlanWire = NonNullable<PositionAnalysis['reference_plan']>;
type PublishedAtEntryWire = NonNullable<PositionAnalysis['published_at_entry']>;
type InvalidationWire = NonNullable<PositionAnalysis['invalidation']>;

/**
 * A position assessment as computed (core's `PositionAssessment`, with the mark's source as the
 * service knows it): times in ms since the epoch.
 */
export interface PositionAssessmentSource
  extends Omit<Assessed, 'reference_plan' | 'published_at_entry' | 'stop_placement'> {
  as_of: number | null;
  stop_placement: PositionAnalysis['stop_placement'];
  timing: Omit<PositionAnalysis['timing'], 'entry_time'> & { entry_time: number | null };
  invalidation: (Omit<InvalidationWire, 'breached_at'> & { breached_at: number | null }) | null;
  reference_plan:
    | (Omit<ReferencePlanWire, 'published_time' | 'take_profits'> & {
        published_time: number;
        take_profits: readonly ReferencePlanWire['take_profits'][number][];
      })
    | null;
  published_at_entry: (Omit<PublishedAtEntryWire, 'published_time'> & { published_time: number }) | null;
}

/** What a position analysis is made of: the position, the candles' market, the timeframe and the assessment. */
export interface PositionAnalysisSource {
  position: Pick<Position, 'id' | 'asset' | 'pair'>;
  /** The market the candles came from; null when none were read. */
  candles: { venue: string; pair: string; market_type: MarketTypeName } | null;
  timeframe: PositionAnalysisTimeframe;
  assessment: PositionAssessmentSource;
}

/**
 * A position analysis on the wire (`GET /v2/positions/{position_id}/analysis`, MCP
 * `position_analysis`). A reference plan's targets are published as price, size and gross
 * risk-reward only.
 */
export function positionAnalysisWire(s: PositionAnalysisSource): PositionAnalysis {
  const a = s.assessment;
  const { invalidation, reference_plan: plan, published_at_entry: published } = a;
  return {
    position_id: s.position.id,
    asset: s.position.asset,
    pair: s.position.pair,
    candles:
      s.candles === null ? null : { venue: s.candles.venue, pair: s.candles.pair, market_type: s.candles.market_type },
    direction: a.direction,
    timeframe: s.timeframe,
    as_of: isoOrNull(a.as_of),
    mark: a.mark,
    mark_source: a.mark_source,
    entry_price: a.entry_price,
    stop_loss: a.stop_loss,
    take_profit: a.take_profit,
    atr: a.atr,
    thesis_status: a.thesis_status,
    unrealized_r: a.unrealized_r,
    remaining_rr: a.remaining_rr,
    entry_vs_plan_pct: a.entry_vs_plan_pct,
    stop_placement: a.stop_placement,
    liquidation_risk: a.liquidation_risk,
    timing: {
      entry_time: isoOrNull(a.timing.entry_time),
      bars_held: a.timing.bars_held,
      bars_held_at_least: a.timing.bars_held_at_least,
      horizon_bars: a.timing.horizon_bars,
      horizon_exceeded: a.timing.horizon_exceeded,
    },
    invalidation: invalidation && {
      price: invalidation.price,
      source: invalidation.source,
      signed_distance_pct: invalidation.signed_distance_pct,
      signed_distance_atr: invalidation.signed_distance_atr,
      breached_at: isoOrNull(invalidation.breached_at),
    },
    excursion: a.excursion,
    plan_geometry: a.plan_geometry,
    nearest_levels: a.nearest_levels,
    published_at_entry: published && {
      published_time: iso(published.published_time),
      timeframe: published.timeframe,
      entry_vs_published_pct: published.entry_vs_published_pct,
      entry_inside_published_zone: published.entry_inside_published_zone,
      unrealized_r_at_published_stop: published.unrealized_r_at_published_stop,
      outcome: published.outcome,
      plan_realized_r: published.plan_realized_r,
    },
    reference_plan: plan && {
      source: plan.source,
      published_time: iso(plan.published_time),
      entry_zone: plan.entry_zone,
      entry_price: plan.entry_price,
      invalidation: plan.invalidation,
      stop_loss: plan.stop_loss,
      take_profits: plan.take_profits.map((t) => ({
        price: t.price,
        size_pct: t.size_pct,
        risk_reward: t.risk_reward,
      })),
      horizon_bars: plan.horizon_bars,
    },
    warnings: a.warnings,
  };
}
