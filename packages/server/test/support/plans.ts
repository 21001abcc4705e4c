/**
 * Test support for plans and the pilot: a market whose candles are written by the test, on a clock
 * the test moves, and a hand-made plan. Not used by the service.
 */
import type { TradePlan } from '@marketlens/core';
import { type CandleSeries, type MarketData, TIMEFRAME_MS, type Timeframe } from '@marketlens/exchanges';
import { type AppDeps, DEFAULT_CONFIG } from '../../src/platform/deps.js';
import type { PublishedPlanRow } from '../../src/storage/plans-types.js';
import { createSqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';

export const HOUR = TIMEFRAME_MS.h1;
/** A candle-aligned start (2026-01-05 00:00 UTC). */
export const T0 = Date.UTC(2026, 0, 5);

export type Bar = readonly [open: number, high: number, low: number, close: number];

/** A market serving `bars[i]` as the h1 candle opening at `T0 + i h` (only those opened before `end` / the clock). */
export interface CraftedMarket extends MarketData {
  bars: Bar[];
  clock: { now: number };
}

export function craftedMarket(bars: Bar[] = [], start = T0): CraftedMarket {
  const clock = { now: start };
  const market: CraftedMarket = {
    venue: 'crafted',
    bars,
    clock,
    async candles(request): Promise<CandleSeries> {
      const end = request.end ?? clock.now + 1;
      const idx: number[] = [];
      for (let i = 0; i < bars.length; i++) {
        const t = start + i * HOUR;
        if (t < end && t <= clock.now) idx.push(i);
      }
      const take = idx.slice(Math.max(0, idx.length - request.limit));
      const col = (k: number) => Float64Array.from(take.map((i) => bars[i][k]));
      return {
        asset_id: request.asset_id,
        venue: 'crafted',
        pair: request.pair ?? 'BTC/USDT',
        market_type: 'spot',
        timeframe: request.timeframe,
        candles: {
          time: Float64Array.from(take.map((i) => start + i * HOUR)),
          open: col(0),
          high: col(1),
          low: col(2),
          close: col(3),
          volume: Float64Array.from(take.map(() => 1)),
        },
      };
    },
    async ticker(request) {
      const i = Math.min(bars.length - 1, Math.floor((clock.now - start) / HOUR));
      const last = i >= 0 ? bars[i][3] : 0;
      return {
        venue: 'crafted',
        pair: request.pair ?? 'BTC/USDT',
        asset_id: request.asset_id,
        market_type: 'spot',
        last,
        bid: last,
        ask: last,
        change_1h_pct: null,
        change_24h_pct: null,
        change_7d_pct: null,
        volume_24h: null,
        quote_volume_usd: null,
        time: clock.now,
      };
    },
    async fundingRate() {
      return null;
    },
    async markets() {
      return [];
    },
  };
  return market;
}

/** Deps over in-memory SQLite and a crafted market. */
export function craftedDeps(
  market: CraftedMarket,
  extra: Partial<AppDeps> = {},
): { deps: AppDeps; storage: ReturnType<typeof createSqliteStorage> } {
  const storage = createSqliteStorage(':memory:');
  const deps: AppDeps = { storage, config: DEFAULT_CONFIG, now: () => market.clock.now, market, ...extra };
  return { deps, storage };
}

/** A long plan computed on the candle opening at `candleTime`: band 99..100, stop 95, targets 110 (70%) and 120 (30%). */
export function longPlan(candleTime = T0, extra: Partial<TradePlan> = {}): TradePlan {
  return {
    direction: 'long',
    bias: 'long',
    reason: null,
    published_index: 0,
    published_time: candleTime,
    mark: 101,
    atr: 2,
    entry_type: 'market',
    entry_zone: { low: 99, high: 100 },
    entry_price: 100,
    invalidation: 96,
    stop_loss: 95,
    take_profits: [
      { price: 110, size_pct: 70, risk_reward: 2, risk_reward_net: (10 - 0.2) / (5 + 0.2) },
      { price: 120, size_pct: 30, risk_reward: 4, risk_reward_net: (20 - 0.2) / (5 + 0.2) },
    ],
    risk_pct: 5,
    cost_pct: 0.2,
    horizon_bars: 10,
    entry_window_bars: 3,
    ...extra,
  };
}

let n = 0;

/** A pending row of `plan`, published at `publishedAt`. */
export function planRow(plan: TradePlan, publishedAt: number, extra: Partial<PublishedPlanRow> = {}): PublishedPlanRow {
  return {
    id: `plan-${++n}`,
    asset_id: 'bitcoin',
    timeframe: 'h1' as Timeframe,
    candle_time: plan.published_time,
    published_at: publishedAt,
    venue: 'crafted',
    pair: 'BTC/USDT',
    market_type: 'spot',
    side: plan.direction ?? 'long',
    confidence: 0.5,
    confidence_low: null,
    confidence_high: null,
    source: 'publisher',
    plan,
    outcome: 'pending',
    entered_at: null,
    fill_price: null,
    closed_at: null,
    targets_hit: 0,
    realized_r: null,
    return_pct: null,
    legs: [],
    reason: null,
    updated_at: publishedAt,
    ...extra,
  };
}
