import type { LiveRecord } from '@marketlens/contract';
import { EDGE_INTERVAL_LEVEL, planEdge, type RecordTrade, recordStats } from '@marketlens/core';
import type { PublishedPlanRow } from '../../storage/plans-types.js';
import type { Storage } from '../../storage/types.js';
import { statsWire } from '../backtest/backtest.js';
import { RESOLVED_OUTCOMES } from './track-record.js';

/** A resolved live call, with where it was published (for filters). */
export interface LiveTrade extends RecordTrade {
  asset_id: string;
  timeframe: string;
}

/**
 * The record trade of a published plan once it is entered and closed, else null. Its break-even and
 * expected R with its interval are core's `planEdge` of the plan as published (its own cost) at the
 * probability it was published with (`confidence`, between `confidence_low` and `confidence_high`).
 * A row stored before the interval was (migration 17) has no interval: its expected R's ends are null.
 */
export function liveTradeOf(row: PublishedPlanRow): LiveTrade | null {
  if (!RESOLVED_OUTCOMES.includes(row.outcome) || row.realized_r === null || row.closed_at === null) return null;
  const p = row.confidence;
  const { confidence_low: low, confidence_high: high } = row;
  const interval = low !== null && high !== null;
  const edge = planEdge(row.plan, {
    probability: p,
    low: low ?? p,
    high: high ?? p,
    plans: 0,
    level: EDGE_INTERVAL_LEVEL,
  });
  return {
    asset_id: row.asset_id,
    timeframe: row.timeframe,
    time: row.candle_time,
    closed_at: row.closed_at,
    realized_r: row.realized_r,
    hit: row.outcome === 'tp_hit',
    break_even: edge?.break_even ?? null,
    expected_r: edge?.expected_r ?? null,
    expected_r_low: interval ? (edge?.expected_r_low ?? null) : null,
    expected_r_high: interval ? (edge?.expected_r_high ?? null) : null,
  };
}

/** The live record's audit of `trades`, labelled. */
export function liveWire(trades: readonly RecordTrade[]): LiveRecord {
  const stats = recordStats(trades);
  return {
    kind: 'live',
    label:
      stats.count === 0
        ? 'Live: the plans the service published, from the first one it served, scored on the candles after their publication; none has been entered and closed yet.'
        : `Live: the plans the service published, from the first one it served, scored on the candles after their publication with their asset class cost; ${stats.count} entered and closed.`,
    stats: statsWire(stats),
  };
}

/** The resolved live calls of one asset on one timeframe. */
export async function liveTradesOf(storage: Storage, assetId: string, timeframe: string): Promise<LiveTrade[]> {
  const rows = await storage.publishedPlans.list({ asset_id: assetId, timeframe });
  return rows.map(liveTradeOf).filter((t): t is LiveTrade => t !== null);
}

/**
 * The resolved live calls of every asset and timeframe that has one (by the database's sums), read
 * plan by plan: the service-wide record's audit. `series` are the (asset, timeframe) pairs to read.
 */
export async function allLiveTrades(
  storage: Storage,
  series: Iterable<{ asset_id: string; timeframe: string }>,
): Promise<LiveTrade[]> {
  const out: LiveTrade[] = [];
  for (const s of series) out.push(...(await liveTradesOf(storage, s.asset_id, s.timeframe)));
  return out;
}
