import type { OperationOutput } from '@marketlens/contract';
import { describe, expect, it } from 'vitest';
import type { PilotTrade } from '../backend.js';
import { render, TEST_BTC } from '../testing/render.js';

/**
 * What the pilot tools' text says about their operation's answer: a made-up bot of two closed trades
 * and one open position (round numbers, not market data), parsed by the operations' output schemas.
 */

/** The pilot's first trade: a BTC long stopped out at -1R (16% of margin lost, costs included). */
const TEST_PILOT_LOSS: PilotTrade = {
  trade_index: 1,
  asset_id: 'bitcoin',
  asset: TEST_BTC,
  side: 'long',
  timeframe: 'd1',
  pair: 'BTC/USDT:USDT',
  outcome: 'stopped_out',
  opened_at: '2026-01-02T00:00:00.000Z',
  closed_at: '2026-01-04T00:00:00.000Z',
  entry_price: 100,
  exit_price: 97,
  stop_loss: 97,
  take_profit: 106,
  take_profits: [
    { price: 106, size_pct: 70 },
    { price: 109, size_pct: 30 },
  ],
  quantity: 2.5,
  margin_usd: 50,
  leverage: 5,
  realized_r: -1,
  pnl_usd: -8,
  return_on_margin_pct: -16,
  legs: [
    { target: 1, size_pct: 70, exit: 'stop', exit_price: 97, exit_at: '2026-01-04T00:00:00.000Z' },
    { target: 2, size_pct: 30, exit: 'stop', exit_price: 97, exit_at: '2026-01-04T00:00:00.000Z' },
  ],
};

/** A closed short of an asset outside the coin universe (no `asset`): target 1 hit, then the rest at 95 too. */
const TEST_PILOT_TRADE: PilotTrade = {
  trade_index: 2,
  asset_id: 'oddcoin',
  side: 'short',
  timeframe: 'd1',
  pair: 'ODD/USDT:USDT',
  outcome: 'tp_hit',
  opened_at: '2026-01-05T00:00:00.000Z',
  closed_at: '2026-01-08T00:00:00.000Z',
  entry_price: 100,
  exit_price: 95,
  stop_loss: 104,
  take_profit: 95,
  take_profits: [{ price: 95, size_pct: 100 }],
  quantity: 2.5,
  margin_usd: 50,
  leverage: 5,
  realized_r: 1.25,
  pnl_usd: 12,
  return_on_margin_pct: 24,
  legs: [{ target: 1, size_pct: 100, exit: 'target', exit_price: 95, exit_at: '2026-01-08T00:00:00.000Z' }],
};

/** The spectator's view: one open BTC long, its MAE unknown, and no `last_active_at` (never run). */
const spectate: OperationOutput<'pilot.spectate'> = {
  timeframe: 'd1',
  universe: [{ asset_id: 'bitcoin', asset: TEST_BTC }],
  starting_equity_usd: 10_000,
  equity_usd: 10_004,
  realized_pnl_usd: 4,
  risk_per_trade_usd: 100,
  leverage: 5,
  cost_pct: 0.2,
  closed_trades: 2,
  open_positions: [
    {
      trade_index: 3,
      asset_id: 'bitcoin',
      asset: TEST_BTC,
      side: 'long',
      timeframe: 'd1',
      pair: 'BTC/USDT:USDT',
      opened_at: '2026-01-14T00:00:00.000Z',
      entry_price: 100,
      stop_loss: 96,
      take_profit: 115,
      take_profits: [
        { price: 115, size_pct: 70 },
        { price: 120, size_pct: 30 },
      ],
      quantity: 25,
      margin_usd: 500,
      leverage: 5,
      closed_pct: 0,
      realized_pnl_usd: 0,
      current_price: 102,
      unrealized_pnl_usd: 50,
      mfe_r: 0.5,
      mae_r: null,
    },
  ],
};

/** The closed trades' record, one page of it: the newest page (`truncated`) holds trade 2 only. */
function history(truncated: boolean): OperationOutput<'pilot.trackRecord'> {
  // The first page holds trade 2; trade 1 (the loss) is on the older page.
  const t = TEST_PILOT_TRADE;
  const odd = {
    trades: 1,
    wins: 1,
    losses: 0,
    win_rate: 1,
    pnl_usd: 12,
    return_on_margin_pct: 24,
    mean_realized_r: 1.25,
  };
  const btc = {
    trades: 1,
    wins: 0,
    losses: 1,
    win_rate: 0,
    pnl_usd: -8,
    return_on_margin_pct: -16,
    mean_realized_r: -1,
  };
  return {
    page_size: 50,
    trades: [t],
    trades_truncated: truncated,
    next_before_trade: truncated ? t.trade_index : null,
    curve: [
      {
        trade_index: TEST_PILOT_LOSS.trade_index,
        time: TEST_PILOT_LOSS.closed_at,
        return_on_margin_pct: -16,
        cumulative_return_on_margin_pct: -16,
        equity_usd: 9_992,
      },
      {
        trade_index: t.trade_index,
        time: t.closed_at,
        return_on_margin_pct: t.return_on_margin_pct,
        cumulative_return_on_margin_pct: 8,
        equity_usd: 10_004,
      },
    ],
    best_trade: t,
    worst_trade: TEST_PILOT_LOSS,
    by_asset: [
      { asset_id: 'bitcoin', asset: TEST_BTC, ...btc },
      { asset_id: t.asset_id, ...odd },
    ],
    summary: {
      trades: 2,
      wins: 1,
      losses: 1,
      win_rate: 0.5,
      pnl_usd: 4,
      return_on_margin_pct: 8,
      mean_realized_r: 0.125,
      starting_equity_usd: 10_000,
      equity_usd: 10_004,
      cumulative_return_on_margin_pct: 8,
    },
  };
}

describe('pilot tools', () => {
  it('get_pilot_spectate says an unknown last run and an unavailable MAE', async () => {
    const s = await render('get_pilot_spectate', 'pilot.spectate', spectate);
    expect(s.text).toContain('last active unknown');
    expect(s.text).toContain('Bitcoin (BTC) long from 100: MFE 0.5R, MAE unavailable');
  });

  it('get_pilot_spectate_history says older trades exist, names an asset outside the universe, and pages', async () => {
    const h = await render('get_pilot_spectate_history', 'pilot.trackRecord', history(true));
    expect(h.text).toContain('older trades exist');
    expect(h.text).toContain('asset outside the coin universe short: entry 100, exit 95');
    expect(h.request).toEqual({});
    const older = await render('get_pilot_spectate_history', 'pilot.trackRecord', history(false), { before_trade: 5 });
    expect(older.request).toEqual({ before_trade: 5 });
    expect(older.text).not.toContain('older trades exist');
  });
});
