import { z } from 'zod';
import { AssetRefSchema, MarketTypeSchema } from '../market/responses.js';
import { POSITION_ANALYSIS_TIMEFRAMES } from './requests.js';

/**
 * Wire schemas of the account-data reads (positions, balances, summary, orders, trades, position
 * analysis): contract sections 2.6 to 2.8 and 2.10. Request schemas live in `@marketlens/mcp`
 * (shared with the MCP tools); these document and check what the routes answer.
 */

const nn = z.number().nullable();
const time = z.iso.datetime();
const timeOrNull = time.nullable();

/** The tracked asset an account row maps to (core's `AssetRef`). */
const AccountAssetSchema = AssetRefSchema.extend({ icon: z.string().nullable() });

const unpriced = (what: string) => `${what}; null when unpriced (never 0)`;

export const PositionSchema = z
  .object({
    id: z.string(),
    user_connection_id: z.string().meta({ description: 'The connected account' }),
    connection_id: z.string().meta({ description: 'The exchange id' }),
    asset: AccountAssetSchema.nullable().meta({ description: 'Null when the instrument maps to no tracked asset' }),
    pair: z.string().meta({ description: "The venue's native instrument name", example: 'BTCUSDT' }),
    side: z.enum(['long', 'short']).nullable(),
    size: z.number(),
    contract_type: z.enum(['linear', 'inverse']),
    settlement_currency: z.string().nullable(),
    entry_price: nn,
    leverage: nn,
    margin: nn,
    maintenance_margin: nn,
    liquidation_price: nn,
    opened_at: timeOrNull,
    updated_at: timeOrNull,
    current_price: nn.meta({ description: unpriced('The mark') }),
    market_value: nn.meta({ description: unpriced('Notional at the mark') }),
    market_value_usd: nn,
    unrealized_pnl: nn.meta({ description: unpriced('Settlement currency') }),
    unrealized_pnl_usd: nn,
    daily_pnl: nn,
    daily_pnl_usd: nn,
    weekly_pnl: nn,
    weekly_pnl_usd: nn,
    margin_usd: nn,
    margin_ratio: nn,
    distance_to_liquidation: nn.meta({ description: unpriced('Signed %, positive on the safe side') }),
    ticker_last_updated: timeOrNull,
    stop_loss: nn.meta({ description: 'From the venue protective-order sync only; an unset leg is null' }),
    take_profit: nn,
    protective_levels_synced_at: timeOrNull.meta({
      description: 'Null: no protective-order read has ever succeeded (a null stop then proves nothing)',
    }),
    funding_since_open: nn.meta({ description: 'Settlement currency, negative = received; null = not reported' }),
    notes: z.string(),
    visible: z.literal(false).meta({ description: 'Always false; retained only for old clients' }),
  })
  .meta({ id: 'PositionExtended' });

export const PortfolioTotalsSchema = z
  .object({
    open_positions_count: z.number().int().meta({ description: 'Every open position, priced or not' }),
    open_long_positions_count: z.number().int(),
    open_short_positions_count: z.number().int(),
    priced_positions_count: z.number().int(),
    unpriced_positions_count: z.number().int(),
    total_market_value_usd: nn.meta({ description: 'Over priced positions only' }),
    total_unrealized_pnl_usd: nn,
    total_daily_pnl_usd: nn,
    total_weekly_pnl_usd: nn,
    total_margin_usd: nn,
  })
  .meta({ id: 'PortfolioTotals' });

export const PositionsSchema = z
  .object({ positions: z.array(PositionSchema), totals: PortfolioTotalsSchema })
  .meta({ id: 'Positions' });

export const LegacyPositionsSchema = z
  .object({
    positions: z.array(PositionSchema).meta({ description: 'Tracked, priced positions' }),
    unpriced_positions: z.array(PositionSchema).meta({ description: 'Tracked, unpriced positions' }),
    totals: PortfolioTotalsSchema,
  })
  .meta({ id: 'LegacyPositions', description: 'The earlier split shape, served to mobile builds below 3.9.26' });

export const BalanceSchema = z
  .object({
    user_connection_id: z.string(),
    connection_id: z.string(),
    account: z.string().meta({ description: "The venue's account: spot, futures, funding, ..." }),
    symbol: z.string().meta({ description: "The venue's currency code, uppercased" }),
    asset: AccountAssetSchema.nullable(),
    balance: z.number(),
    available: nn,
    frozen: nn,
    usd_price: nn,
    balance_usd: nn.meta({ description: unpriced('USD value') }),
    available_usd: nn,
    frozen_usd: nn,
    percentage_of_total: nn,
  })
  .meta({ id: 'Balance' });

const BalanceTotals = {
  total_usd: nn.meta({ description: 'Over priced balances; null when none is priced' }),
  priced_count: z.number().int(),
  unpriced_count: z.number().int(),
};

export const BalancesSchema = z.object({ balances: z.array(BalanceSchema), ...BalanceTotals }).meta({ id: 'Balances' });

export const LegacyBalancesSchema = z
  .object({
    balances: z.array(BalanceSchema).meta({ description: 'Tracked, priced balances' }),
    unpriced_balances: z.array(BalanceSchema).meta({ description: 'Tracked, unpriced balances' }),
    ...BalanceTotals,
  })
  .meta({ id: 'LegacyBalances', description: 'The earlier split shape, served to mobile builds below 3.9.26' });

export const PortfolioSummarySchema = z
  .object({
    positions: PortfolioTotalsSchema,
    balances: z.object({ ...BalanceTotals, count: z.number().int() }),
    connections: z.object({
      count: z.number().int(),
      failing_count: z.number().int().meta({ description: 'Accounts whose last sync failed' }),
      never_synced_count: z.number().int(),
      oldest_synced_at: timeOrNull.meta({ description: 'Oldest last successful sync among synced accounts' }),
    }),
  })
  .meta({ id: 'PortfolioSummary' });

export const TradeSchema = z
  .object({
    external_id: z.string(),
    user_connection_id: z.string(),
    connection_id: z.string(),
    order_id: z.string().nullable(),
    pair: z.string(),
    asset: AccountAssetSchema.nullable().meta({ description: 'Null when the pair maps to no tracked asset' }),
    asset_id: z.string().nullable().meta({ description: 'Null when the pair resolves to no asset' }),
    coin_id: z.string().nullable().meta({ description: 'Deprecated alias of asset_id', deprecated: true }),
    side: z.enum(['buy', 'sell']),
    price: z.number(),
    size: z.number(),
    fee: nn,
    fee_currency: z.string().nullable(),
    pnl: nn,
    executed_at: time,
  })
  .meta({ id: 'Trade' });

export const OrderSchema = z
  .object({
    id: z.string(),
    order_id: z.string().nullable(),
    user_connection_id: z.string(),
    connection_id: z.string(),
    pair: z.string(),
    asset: AccountAssetSchema.nullable().meta({ description: 'Null when the pair maps to no tracked asset' }),
    asset_id: z.string().nullable(),
    coin_id: z.string().nullable().meta({ description: 'Deprecated alias of asset_id', deprecated: true }),
    side: z.enum(['buy', 'sell']),
    price: z.number().meta({ description: 'Size-weighted average fill price' }),
    size: z.number(),
    fee: nn,
    fee_currency: z.string().nullable(),
    pnl: nn,
    fills_count: z.number().int(),
    first_fill_at: time,
    last_fill_at: time,
    fills: z.array(TradeSchema).meta({
      description: 'Every fill of the order, oldest first, also those outside a start..end window',
    }),
  })
  .meta({ id: 'OrderExtended' });

export const OrdersSchema = z
  .object({ orders: z.array(OrderSchema), total: z.number().int().meta({ format: 'int64' }) })
  .meta({ id: 'Orders' });

export const TradesSchema = z
  .object({ trades: z.array(TradeSchema), total: z.number().int().meta({ format: 'int64' }) })
  .meta({ id: 'Trades' });

const PlanSource = z.enum(['published', 'entry_structure', 'current']);
const Level = z.object({
  low: z.number(),
  high: z.number(),
  mid: z.number(),
  strength: z.number(),
  distance_pct: z.number(),
  distance_atr: nn,
});

export const PositionAnalysisSchema = z
  .object({
    position_id: z.string(),
    asset: AccountAssetSchema.nullable(),
    pair: z.string(),
    candles: z
      .object({ venue: z.string(), pair: z.string(), market_type: MarketTypeSchema })
      .nullable()
      .meta({ description: 'The market the candles came from; null when none were read' }),
    direction: z.enum(['long', 'short']).nullable(),
    timeframe: z.enum(POSITION_ANALYSIS_TIMEFRAMES).nullable(),
    as_of: timeOrNull,
    mark: z.number(),
    mark_source: z.enum(['venue', 'market', 'candle']).meta({
      description:
        "venue: the venue's mark from the last sync; market: the service's market data priced the position (the venue gave no mark); candle: the last close (the position is unpriced)",
    }),
    entry_price: z.number(),
    stop_loss: nn,
    take_profit: nn,
    atr: nn,
    thesis_status: z.enum(['intact', 'invalidated', 'unknown']),
    unrealized_r: nn,
    remaining_rr: nn,
    entry_vs_plan_pct: nn,
    stop_placement: z
      .object({
        stop_loss: z.number(),
        signed_distance_pct: z.number(),
        noise_distance_atr: nn,
        inside_entry_zone: z.boolean().nullable(),
        beyond_invalidation: z.boolean().nullable(),
        inside_opposing_zone: z.boolean().nullable(),
        breakeven_or_better: z.boolean(),
      })
      .nullable(),
    liquidation_risk: z
      .object({ liquidation_price: z.number(), abs_distance_pct: z.number(), abs_distance_atr: nn })
      .nullable(),
    timing: z.object({
      entry_time: timeOrNull,
      bars_held: z.number().int().nullable(),
      bars_held_at_least: z.number().int(),
      horizon_bars: z.number().int().nullable(),
      horizon_exceeded: z.boolean().nullable(),
    }),
    invalidation: z
      .object({
        price: z.number(),
        source: PlanSource,
        signed_distance_pct: z.number(),
        signed_distance_atr: nn,
        breached_at: timeOrNull,
      })
      .nullable(),
    excursion: z
      .object({
        mfe_pct: z.number(),
        mae_pct: z.number(),
        mfe_atr: nn,
        mae_atr: nn,
        bars_since_peak: z.number().int(),
        current_over_peak: nn,
      })
      .nullable(),
    plan_geometry: z
      .object({
        hypothetical: z.literal(true),
        plan_stop: z.number(),
        plan_target: z.number(),
        unrealized_r_at_plan_stop: nn,
        remaining_rr_on_plan: nn,
      })
      .nullable(),
    nearest_levels: z.object({ support: Level.nullable(), resistance: Level.nullable() }).nullable(),
    published_at_entry: z
      .object({
        published_time: time,
        timeframe: z.string().nullable(),
        entry_vs_published_pct: z.number(),
        entry_inside_published_zone: z.boolean(),
        unrealized_r_at_published_stop: nn,
        outcome: z.enum(['pending', 'entered', 'tp_hit', 'stopped_out', 'time_stopped', 'expired']).nullable(),
        plan_realized_r: nn,
      })
      .nullable(),
    reference_plan: z
      .object({
        source: PlanSource,
        published_time: time,
        entry_zone: z.object({ low: z.number(), high: z.number() }),
        entry_price: z.number(),
        invalidation: z.number(),
        stop_loss: z.number(),
        take_profits: z.array(z.object({ price: z.number(), size_pct: z.number(), risk_reward: z.number() })),
        horizon_bars: z.number().int().nullable(),
      })
      .nullable(),
    warnings: z.array(
      z.enum([
        'no_stop_recorded',
        'protective_levels_not_synced',
        'stop_unusable',
        'stop_wrong_side',
        'stop_within_noise',
        'liquidation_within_noise',
      ]),
    ),
  })
  .meta({ id: 'PositionAnalysis', description: 'Descriptive only: no action, suggested stop or confidence' });
