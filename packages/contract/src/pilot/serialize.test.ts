import { describe, expect, it } from 'vitest';
import { PilotOpenPositionSchema, PilotTradeSchema } from './responses.js';
import { type PilotTradeSource, pilotOpenPositionWire, pilotTradeWire } from './serialize.js';

// 2026-11-25T16:00:00.000Z
const T0 = Date.UTC(2026, 10, 25, 16);
const HOUR = 3_600_000;
const BTC = { id: 'bitcoin', symbol: 'BTC', name: 'Bitcoin', icon: 'data:,', asset_class: 'coins' as const };

const trade: PilotTradeSource = {
  trade_index: 7,
  asset_id: 'bitcoin',
  side: 'short',
  timeframe: 'h4',
  pair: 'BTCUSDT',
  outcome: 'tp_hit',
  opened_at: T0,
  closed_at: T0 + 8 * HOUR,
  entry_price: 60_000,
  exit_price: 57_900,
  stop_loss: 61_000,
  take_profits: [
    { price: 58_000, size_pct: 70 },
    { price: 57_000, size_pct: 30 },
  ],
  quantity: 0.1,
  margin_usd: 2_000,
  leverage: 3,
  realized_r: 2.1,
  pnl_usd: 198,
  return_on_margin_pct: 9.9,
  legs: [
    { target: 1, size_pct: 70, exit: 'target', exit_price: 58_000, exit_time: T0 + 4 * HOUR },
    { target: 2, size_pct: 30, exit: null, exit_price: null, exit_time: null },
  ],
};

describe('pilot serializers', () => {
  it('publishes a closed trade with ISO times, target 1 as take_profit and legs exiting at ISO times', () => {
    const out = pilotTradeWire(trade, BTC);
    expect(out).toMatchObject({
      asset: BTC,
      opened_at: '2026-11-25T16:00:00.000Z',
      closed_at: '2026-11-26T00:00:00.000Z',
      exit_price: 57_900,
      take_profit: 58_000,
      legs: [
        { target: 1, size_pct: 70, exit: 'target', exit_price: 58_000, exit_at: '2026-11-25T20:00:00.000Z' },
        { target: 2, size_pct: 30, exit: null, exit_price: null, exit_at: null },
      ],
    });
    expect(PilotTradeSchema.strict().parse(out)).toEqual(out);
  });

  it('leaves out the asset outside the coin universe and reads missing closing figures as no move', () => {
    const out = pilotTradeWire(
      {
        ...trade,
        take_profits: [],
        closed_at: null,
        exit_price: null,
        realized_r: null,
        pnl_usd: null,
        return_on_margin_pct: null,
      },
      undefined,
    );
    expect('asset' in out).toBe(false);
    expect(out).toMatchObject({
      closed_at: '2026-11-25T16:00:00.000Z',
      exit_price: 60_000,
      take_profit: null,
      realized_r: 0,
      pnl_usd: 0,
      return_on_margin_pct: 0,
    });
  });

  it('publishes an open position with what was read of it now', () => {
    const live = {
      closed_pct: 70,
      realized_pnl_usd: 140,
      current_price: null,
      unrealized_pnl_usd: null,
      mfe_r: 2.5,
      mae_r: 0.25,
    };
    const out = pilotOpenPositionWire(trade, null, live);
    expect(out).toEqual({
      trade_index: 7,
      asset_id: 'bitcoin',
      side: 'short',
      timeframe: 'h4',
      pair: 'BTCUSDT',
      opened_at: '2026-11-25T16:00:00.000Z',
      entry_price: 60_000,
      stop_loss: 61_000,
      take_profit: 58_000,
      take_profits: trade.take_profits,
      quantity: 0.1,
      margin_usd: 2_000,
      leverage: 3,
      ...live,
    });
    expect(PilotOpenPositionSchema.strict().parse(out)).toEqual(out);
  });
});
