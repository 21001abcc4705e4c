import { describe, expect, it } from 'vitest';
import { UserConnectionSchema } from './connections.js';
import { BalanceSchema, OrderSchema, PositionAnalysisSchema, PositionSchema, TradeSchema } from './responses.js';
import {
  type AccountAsset,
  balanceWire,
  connectionWire,
  orderWire,
  type PositionAnalysisSource,
  positionAnalysisWire,
  positionWire,
  type TradeSource,
  tradeWire,
} from './serialize.js';

// 2026-11-25T16:00:00.000Z
const T0 = Date.UTC(2026, 10, 25, 16);
const BTC: AccountAsset = { id: 'bitcoin', symbol: 'BTC', name: 'Bitcoin', icon: null, asset_class: 'coins' };

const position = {
  id: 'p1',
  user_connection_id: 'c1',
  connection_id: 'bybit',
  asset: BTC,
  pair: 'BTCUSDT',
  side: 'long' as const,
  size: 0.5,
  contract_type: 'linear' as const,
  settlement_currency: 'USDT',
  entry_price: 60_000,
  leverage: 5,
  margin: 6_000,
  maintenance_margin: 150,
  liquidation_price: 48_000,
  opened_at: '2026-11-25T16:00:00.000Z',
  updated_at: null,
  current_price: null,
  market_value: null,
  market_value_usd: null,
  unrealized_pnl: null,
  unrealized_pnl_usd: null,
  daily_pnl: null,
  daily_pnl_usd: null,
  weekly_pnl: null,
  weekly_pnl_usd: null,
  margin_usd: 6_000,
  margin_ratio: null,
  distance_to_liquidation: null,
  ticker_last_updated: null,
  stop_loss: null,
  take_profit: 70_000,
  protective_levels_synced_at: null,
  funding_since_open: -1.25,
  notes: '',
  visible: false as const,
};

describe('account serializers', () => {
  it('publishes a position with exactly the contract fields, nulls kept (an unpriced position is never 0)', () => {
    const out = positionWire({ ...position, extra: 'dropped' } as typeof position);
    expect(out).toEqual(position);
    expect(Object.keys(out)).toEqual(Object.keys(PositionSchema.shape));
    expect(PositionSchema.strict().parse(out)).toEqual(out);
  });

  it('publishes a balance with exactly the contract fields', () => {
    const balance = {
      user_connection_id: 'c1',
      connection_id: 'bybit',
      account: 'spot',
      symbol: 'USDT',
      asset: null,
      balance: 100,
      available: 80,
      frozen: 20,
      usd_price: 1,
      balance_usd: 100,
      available_usd: 80,
      frozen_usd: 20,
      percentage_of_total: 100,
    };
    const out = balanceWire({ ...balance, total: 100 } as typeof balance);
    expect(out).toEqual(balance);
    expect(BalanceSchema.strict().parse(out)).toEqual(out);
  });

  const fill: TradeSource = {
    external_id: 'f1',
    user_connection_id: 'c1',
    connection_id: 'bybit',
    order_id: 'o1',
    pair: 'BTCUSDT',
    asset_id: 'bitcoin',
    coin_id: 'bitcoin',
    side: 'buy',
    price: 60_000,
    size: 0.1,
    fee: null,
    fee_currency: null,
    pnl: null,
    executed_at: '2026-11-25T16:00:00.000Z',
  };

  it('gives a fill and an order (and each of its fills) the asset block of its asset_id', () => {
    expect(tradeWire(fill, BTC)).toEqual({ ...fill, asset: BTC });
    expect(TradeSchema.strict().parse(tradeWire(fill, null)).asset).toBeNull();
    const unmapped = { ...fill, external_id: 'f2', asset_id: null, coin_id: null };
    const order = orderWire(
      {
        id: 'o1',
        order_id: 'o1',
        user_connection_id: 'c1',
        connection_id: 'bybit',
        pair: 'BTCUSDT',
        asset_id: 'bitcoin',
        coin_id: 'bitcoin',
        side: 'buy',
        price: 60_000,
        size: 0.2,
        fee: null,
        fee_currency: null,
        pnl: null,
        fills_count: 2,
        first_fill_at: '2026-11-25T16:00:00.000Z',
        last_fill_at: '2026-11-25T16:00:00.000Z',
        fills: [fill, unmapped],
      },
      (id) => (id === 'bitcoin' ? BTC : null),
    );
    expect(order.asset).toEqual(BTC);
    expect(order.fills.map((t) => t.asset)).toEqual([BTC, null]);
    expect(OrderSchema.strict().parse(order)).toEqual(order);
  });

  it('publishes a connection without credentials, its times as ISO and its sync status from the last attempt', () => {
    const stored = {
      id: '0b6f4c1e-8a44-4a8e-9d55-1f0f3b8c2a10',
      venue: 'bybit',
      label: null,
      created_at: T0,
      last_sync_at: null,
      last_success_at: null,
      last_error: null,
      failures: 0,
      next_sync_at: T0 + 60_000,
      fills_synced_until: null,
      protective_levels_synced_at: null,
      credentials: 'secret',
    };
    const pending = connectionWire(stored, []);
    expect(pending).toEqual({
      id: stored.id,
      exchange_id: 'bybit',
      label: null,
      created_at: '2026-11-25T16:00:00.000Z',
      sync: {
        status: 'pending',
        last_sync_at: null,
        last_success_at: null,
        last_error: null,
        failures: 0,
        next_sync_at: '2026-11-25T16:01:00.000Z',
        fills_synced_until: null,
        protective_levels_synced_at: null,
      },
      positions: [],
    });
    expect(JSON.stringify(pending)).not.toContain('secret');
    const failed = connectionWire({ ...stored, last_sync_at: T0, last_error: 'denied', failures: 2 }, [
      {
        id: '5a1d2f7e-3c4b-4d8e-9f00-112233445566',
        pair: 'BTCUSDT',
        asset_id: 'bitcoin',
        market_type: 'derivatives',
        side: 'short',
        size: 1,
        entry_price: 60_000,
        mark_price: null,
        margin: null,
        leverage: null,
        liquidation_price: null,
        unrealized_pnl: null,
        settle: 'USDT',
        stop_loss: null,
        take_profit: null,
        protective_levels_synced_at: T0 + 1,
        funding_since_open: null,
        notes: 'n',
        opened_at: null,
        updated_at: T0,
      },
    ]);
    expect(failed.sync).toMatchObject({ status: 'error', last_sync_at: '2026-11-25T16:00:00.000Z', failures: 2 });
    expect(failed.positions[0]).toMatchObject({
      protective_levels_synced_at: '2026-11-25T16:00:00.001Z',
      opened_at: null,
      updated_at: '2026-11-25T16:00:00.000Z',
    });
    expect(connectionWire({ ...stored, last_sync_at: T0 }, []).sync.status).toBe('ok');
    expect(UserConnectionSchema.strict().parse(failed)).toEqual(failed);
  });

  it('publishes an assessment with ISO times and reference targets cut to price, size and risk-reward', () => {
    const source: PositionAnalysisSource = {
      position: { id: 'p1', asset: BTC, pair: 'BTCUSDT' },
      candles: { venue: 'bybit', pair: 'BTCUSDT', market_type: 'derivatives' },
      timeframe: 'h4',
      assessment: {
        direction: 'long',
        as_of: T0,
        mark: 62_000,
        mark_source: 'market',
        entry_price: 60_000,
        stop_loss: null,
        take_profit: null,
        atr: 900,
        thesis_status: 'intact',
        unrealized_r: null,
        remaining_rr: null,
        entry_vs_plan_pct: 0.5,
        stop_placement: null,
        liquidation_risk: null,
        timing: {
          entry_time: null,
          bars_held: null,
          bars_held_at_least: 3,
          horizon_bars: null,
          horizon_exceeded: null,
        },
        invalidation: {
          price: 58_000,
          source: 'current',
          signed_distance_pct: -6.45,
          signed_distance_atr: null,
          breached_at: null,
        },
        excursion: null,
        plan_geometry: null,
        nearest_levels: null,
        published_at_entry: {
          published_time: T0 - 3_600_000,
          timeframe: 'h4',
          entry_vs_published_pct: 0.1,
          entry_inside_published_zone: true,
          unrealized_r_at_published_stop: null,
          outcome: 'entered',
          plan_realized_r: null,
        },
        reference_plan: {
          source: 'published',
          published_time: T0 - 3_600_000,
          entry_zone: { low: 59_000, high: 61_000 },
          entry_price: 60_000,
          invalidation: 58_000,
          stop_loss: 57_500,
          take_profits: [{ price: 66_000, size_pct: 70, risk_reward: 2.4, net: 2.3 } as never],
          horizon_bars: 30,
        },
        warnings: ['no_stop_recorded'],
      },
    };
    const out = positionAnalysisWire(source);
    expect(out).toMatchObject({
      position_id: 'p1',
      candles: { venue: 'bybit', pair: 'BTCUSDT', market_type: 'derivatives' },
      timeframe: 'h4',
      as_of: '2026-11-25T16:00:00.000Z',
      mark_source: 'market',
      timing: { entry_time: null, bars_held_at_least: 3 },
      invalidation: { breached_at: null, price: 58_000 },
      published_at_entry: { published_time: '2026-11-25T15:00:00.000Z' },
      reference_plan: { published_time: '2026-11-25T15:00:00.000Z' },
    });
    expect(out.reference_plan?.take_profits).toEqual([{ price: 66_000, size_pct: 70, risk_reward: 2.4 }]);
    expect(positionAnalysisWire({ ...source, candles: null }).candles).toBeNull();
    expect(PositionAnalysisSchema.strict().parse(out)).toEqual(out);
  });
});
