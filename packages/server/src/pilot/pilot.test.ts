import { describe, expect, it, vi } from 'vitest';
import { type Bar, craftedDeps, craftedMarket, HOUR, longPlan, planRow, T0 } from '../../test/support/plans.js';
import type { PilotTradeRecord } from '../storage/plans-types.js';
import { runPilotCycle } from './bot.js';
import { DEFAULT_PILOT_CONFIG } from './config.js';
import { PILOT_PAGE_SIZE, spectateOverview, spectateTrackRecord } from './views.js';

const PUB: Bar = [101, 102, 100.5, 101];
const ENTRY: Bar = [103, 104, 99.5, 101];
const config = {
  ...DEFAULT_PILOT_CONFIG,
  universe: ['bitcoin'],
  timeframe: 'h1' as const,
  startingEquityUsd: 10_000,
  riskPerTradePct: 1,
  leverage: 5,
};

function setup() {
  const market = craftedMarket([PUB]);
  const onPilotTrade = vi.fn();
  const { deps, storage } = craftedDeps(market, { pilot: { onPilotTrade } });
  deps.config = { ...deps.config, pilot: config };
  const at = (bars: number) => {
    market.clock.now = T0 + bars * HOUR + 60_000;
  };
  return { market, deps, storage, onPilotTrade, at };
}

describe('pilot on published plans (crafted market, injected clock)', () => {
  it('opens on an entered plan, pushes once, exits 70/30 with the cost, and keeps a curve', async () => {
    const { market, deps, storage, onPilotTrade, at } = setup();
    market.clock.now = T0 + 10 * 60_000;
    await runPilotCycle(deps);
    expect((await spectateOverview(deps)).last_active_at).toBe(new Date(market.clock.now).toISOString());

    // Plan 1: published half-way through the first candle, entered in the next one.
    await storage.publishedPlans.record(planRow(longPlan(T0), T0 + HOUR / 2));
    market.bars.push(ENTRY);
    at(2);
    const run = await runPilotCycle(deps);
    expect(run.opened).toHaveLength(1);
    expect(onPilotTrade).toHaveBeenCalledTimes(1);
    const opened = onPilotTrade.mock.calls[0][0] as PilotTradeRecord;
    expect(opened).toMatchObject({
      trade_index: 1,
      asset_id: 'bitcoin',
      side: 'long',
      entry_price: 100,
      stop_loss: 95,
    });
    // Fixed risk: 1% of 10,000 = 100 USD over 5 per unit = 20 units; 2,000 notional, 400 margin at 5x.
    expect(opened.quantity).toBe(20);
    expect(opened.margin_usd).toBe(400);

    // Target 1: 70% closes, 30% runs.
    market.bars.push([102, 111, 101, 109]);
    at(3);
    await runPilotCycle(deps);
    expect(onPilotTrade).toHaveBeenCalledTimes(1);
    const live = await spectateOverview(deps);
    expect(live.open_positions).toHaveLength(1);
    const pos = live.open_positions[0];
    expect(pos.closed_pct).toBe(70);
    expect(pos.realized_pnl_usd).toBeCloseTo(14 * 10 - 0.002 * 100 * 14, 9);
    expect(pos.mfe_r).toBeCloseTo((111 - 100) / 5, 12);
    expect(pos.mae_r).toBe(0);
    expect(pos.asset?.id).toBe('bitcoin');

    // Target 2: the rest closes; the trade is tp_hit.
    market.bars.push([102, 121, 101, 119]);
    at(4);
    const closing = await runPilotCycle(deps);
    expect(closing.closed.map((t) => t.trade_index)).toEqual([1]);

    // Plan 2: a loser (stop).
    await storage.publishedPlans.record(planRow(longPlan(T0 + 4 * HOUR), T0 + 4 * HOUR + HOUR / 2));
    market.bars.push([101, 102, 100.5, 101], ENTRY);
    at(6);
    await runPilotCycle(deps);
    expect(onPilotTrade).toHaveBeenCalledTimes(2);
    market.bars.push([100, 101, 94, 95]);
    at(7);
    await runPilotCycle(deps);

    const record = await spectateTrackRecord(deps);
    expect(record.trades.map((t) => [t.trade_index, t.outcome])).toEqual([
      [1, 'tp_hit'],
      [2, 'stopped_out'],
    ]);
    const [win, loss] = record.trades;
    expect(win.exit_price).toBeCloseTo(0.7 * 110 + 0.3 * 120, 12);
    expect(win.pnl_usd).toBeCloseTo(256, 9);
    expect(win.realized_r).toBeCloseTo(2.56, 12);
    expect(win.return_on_margin_pct).toBeCloseTo(64, 9);
    expect(win.legs.map((l) => [l.size_pct, l.exit, l.exit_price])).toEqual([
      [70, 'target', 110],
      [30, 'target', 120],
    ]);
    expect(win).toMatchObject({ entry_price: 100, stop_loss: 95, take_profit: 110 });
    expect(loss.pnl_usd).toBeCloseTo(-104, 9);
    expect(loss.return_on_margin_pct).toBeCloseTo(-26, 9);
    expect(record.curve.map((p) => p.cumulative_return_on_margin_pct)).toEqual([
      expect.closeTo(64, 9),
      expect.closeTo(38, 9),
    ]);
    expect(record.curve.at(-1)?.equity_usd).toBe(10_152);
    expect(record.best_trade?.trade_index).toBe(1);
    expect(record.worst_trade?.trade_index).toBe(2);
    expect(record.by_asset).toEqual([expect.objectContaining({ asset_id: 'bitcoin', trades: 2, wins: 1, losses: 1 })]);
    expect(record.trades_truncated).toBe(false);
    expect((await spectateOverview(deps)).equity_usd).toBe(10_152);
  });

  it('takes one trade per asset at a time and only plans published after it started', async () => {
    const { market, deps, storage, onPilotTrade, at } = setup();
    // Published before the bot's first run: not taken.
    await storage.publishedPlans.record(planRow(longPlan(T0), T0 + HOUR / 2));
    market.clock.now = T0 + HOUR - 1;
    await runPilotCycle(deps);
    await storage.publishedPlans.record(planRow(longPlan(T0 + HOUR), T0 + HOUR + HOUR / 2));
    market.bars.push([101, 102, 100.5, 101], ENTRY);
    at(3);
    const run = await runPilotCycle(deps);
    expect(run.opened.map((t) => t.opened_at)).toEqual([T0 + 2 * HOUR]);
    // A second plan entered while the trade runs is skipped.
    await storage.publishedPlans.record(planRow(longPlan(T0 + 3 * HOUR), T0 + 3 * HOUR + HOUR / 2));
    market.bars.push([101, 102, 100.5, 101], ENTRY);
    at(5);
    const again = await runPilotCycle(deps);
    expect(again.opened).toEqual([]);
    expect(again.skipped.map((s) => s.reason)).toEqual(['asset_busy']);
    expect(onPilotTrade).toHaveBeenCalledTimes(1);
  });

  it('spectate has no last_active_at before the first run', async () => {
    const { deps } = setup();
    const view = await spectateOverview(deps);
    expect('last_active_at' in view).toBe(false);
    expect(view.open_positions).toEqual([]);
  });
});

describe('track record paging', () => {
  it(`pages ${PILOT_PAGE_SIZE} trades backwards with before_trade and says when older ones exist`, async () => {
    const { deps, storage } = setup();
    const total = 2 * PILOT_PAGE_SIZE + 20;
    for (let i = 0; i < total; i++) {
      const assetId = i % 2 === 0 ? 'bitcoin' : 'stock-aapl';
      const row = planRow(longPlan(T0 + i * HOUR), T0 + i * HOUR, { asset_id: assetId });
      await storage.publishedPlans.record(row);
      await storage.pilot.decide(
        row.id,
        {
          taken: {
            id: `t${i}`,
            plan_id: row.id,
            asset_id: assetId,
            timeframe: 'h1',
            pair: 'X/USDT',
            side: 'long',
            opened_at: T0 + i * HOUR,
            entry_price: 100,
            stop_loss: 95,
            take_profits: [{ price: 110, size_pct: 100 }],
            quantity: 20,
            notional_usd: 2000,
            margin_usd: 400,
            leverage: 5,
            risk_usd: 100,
            status: 'closed',
            outcome: i % 3 === 0 ? 'stopped_out' : 'tp_hit',
            closed_at: T0 + i * HOUR + 1,
            exit_price: i % 3 === 0 ? 95 : 110,
            realized_r: i % 3 === 0 ? -1.04 : 1.96,
            pnl_usd: i % 3 === 0 ? -104 : 196,
            return_on_margin_pct: i % 3 === 0 ? -26 : 49,
            legs: [],
          },
        },
        1,
      );
    }
    const newest = await spectateTrackRecord(deps);
    expect(newest.trades).toHaveLength(PILOT_PAGE_SIZE);
    expect(newest.trades[0].trade_index).toBe(total - PILOT_PAGE_SIZE + 1);
    expect(newest.trades.at(-1)?.trade_index).toBe(total);
    expect(newest.trades_truncated).toBe(true);
    expect(newest.next_before_trade).toBe(total - PILOT_PAGE_SIZE + 1);
    const middle = await spectateTrackRecord(deps, newest.next_before_trade ?? undefined);
    expect(middle.trades[0].trade_index).toBe(total - 2 * PILOT_PAGE_SIZE + 1);
    expect(middle.trades_truncated).toBe(true);
    const oldest = await spectateTrackRecord(deps, middle.next_before_trade ?? undefined);
    expect(oldest.trades.map((t) => t.trade_index)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(oldest.trades_truncated).toBe(false);
    expect(oldest.next_before_trade).toBeNull();
    // Cumulative figures run from the first trade, whatever the page.
    expect(middle.curve[0].cumulative_return_on_margin_pct).toBeCloseTo(
      (oldest.curve.at(-1)?.cumulative_return_on_margin_pct ?? 0) + middle.curve[0].return_on_margin_pct,
      9,
    );
    // The asset block is there for a coin, absent for a stock.
    expect(oldest.trades[0].asset?.id).toBe('bitcoin');
    expect('asset' in oldest.trades[1]).toBe(false);
    expect(newest.by_asset.map((a) => [a.asset_id, 'asset' in a])).toEqual([
      ['bitcoin', true],
      ['stock-aapl', false],
    ]);
    expect(newest.summary.trades).toBe(total);
    expect(newest.best_trade?.return_on_margin_pct).toBe(49);
    expect(newest.worst_trade?.return_on_margin_pct).toBe(-26);
  });
});
