import type { PositionInput } from './positions.js';

/** A fixed "now" of the portfolio and position tests (ms UTC). @internal */
export const T = Date.UTC(2025, 0, 10, 12);
/** One hour in ms. @internal */
export const H = 3_600_000;

/** A priced BTCUSDT long with every field set; `over` replaces fields. @internal */
export function positionInput(over: Partial<PositionInput> = {}): PositionInput {
  return {
    id: 'p1',
    user_connection_id: 'uc1',
    connection_id: 'binance',
    pair: 'BTCUSDT',
    asset: { id: 'bitcoin', symbol: 'BTC', name: 'Bitcoin', icon: null, asset_class: 'coins' },
    side: 'long',
    size: 0.5,
    settlement_currency: 'usdt',
    entry_price: 60_000,
    leverage: 10,
    margin: 3_000,
    maintenance_margin: 150,
    liquidation_price: 54_500,
    opened_at: T - 10 * 24 * H,
    updated_at: T,
    mark_price: 62_000,
    mark_time: T,
    price_24h_ago: 61_000,
    price_7d_ago: 58_000,
    usd_rate: 1,
    stop_loss: 57_000,
    take_profit: 66_000,
    protective_levels_synced_at: T - H,
    funding_since_open: 12.5,
    notes: 'swing',
    ...over,
  };
}
