import type { PlanOutcome } from '@marketlens/core';
import { iso, isoOrNull } from '../../market/market.js';
import { PLAN_OUTCOMES, type PublishedPlanRow } from '../../storage/plans-types.js';
import type { Storage } from '../../storage/types.js';
import { PLAN_COST_PCT } from './outcomes.js';

/** Outcomes of plans that were entered and closed: the trades the hit rate and mean R are over. */
export const RESOLVED_OUTCOMES: readonly PlanOutcome[] = ['tp_hit', 'stopped_out', 'time_stopped'];

/** Confidence buckets of the calibration: [0, 0.2), [0.2, 0.4), ..., [0.8, 1]. */
export const CALIBRATION_BUCKETS = 5;

/** Newest plans listed with a track record. */
export const RECENT_PLANS = 20;

/** One confidence bucket: how often plans of that confidence reached target 1. */
export interface CalibrationBucket {
  confidence_min: number;
  confidence_max: number;
  /** Plans published with a confidence in the bucket. */
  plans: number;
  /** Of those, entered and closed (tp_hit, stopped_out, time_stopped). */
  resolved: number;
  /** Of those, tp_hit. */
  hits: number;
  /** `hits / resolved`; null when none resolved. */
  hit_rate: number | null;
  /** Mean confidence of the resolved plans; null when none. Compare with hit_rate. */
  mean_confidence: number | null;
}

/** The service's own record on one asset and timeframe. */
export interface PlanTrackRecord {
  timeframe: string;
  plans: number;
  counts: Record<PlanOutcome, number>;
  resolved: number;
  hit_rate: number | null;
  /** Mean realized R (after the cost) over resolved plans; null when none. */
  mean_realized_r: number | null;
  total_realized_r: number;
  cost_pct: number;
  calibration: CalibrationBucket[];
}

/** Figures of a track record from the stored tallies and confidences. */
export async function planTrackRecord(storage: Storage, assetId: string, timeframe: string): Promise<PlanTrackRecord> {
  const [tallies, confidences] = await Promise.all([
    storage.publishedPlans.tally(assetId, timeframe),
    storage.publishedPlans.confidences(assetId, timeframe),
  ]);
  const counts = Object.fromEntries(PLAN_OUTCOMES.map((o) => [o, 0])) as Record<PlanOutcome, number>;
  let sumR = 0;
  let withR = 0;
  for (const t of tallies) {
    counts[t.outcome] = t.count;
    if (RESOLVED_OUTCOMES.includes(t.outcome)) {
      sumR += t.sum_r;
      withR += t.with_r;
    }
  }
  const resolved = RESOLVED_OUTCOMES.reduce((n, o) => n + counts[o], 0);
  const buckets: CalibrationBucket[] = [];
  for (let b = 0; b < CALIBRATION_BUCKETS; b++) {
    const lo = b / CALIBRATION_BUCKETS;
    const hi = (b + 1) / CALIBRATION_BUCKETS;
    const inBucket = confidences.filter((c) =>
      b === CALIBRATION_BUCKETS - 1 ? c.confidence >= lo : c.confidence >= lo && c.confidence < hi,
    );
    const done = inBucket.filter((c) => RESOLVED_OUTCOMES.includes(c.outcome));
    const hits = done.filter((c) => c.outcome === 'tp_hit').length;
    buckets.push({
      confidence_min: lo,
      confidence_max: hi,
      plans: inBucket.length,
      resolved: done.length,
      hits,
      hit_rate: done.length === 0 ? null : hits / done.length,
      mean_confidence: done.length === 0 ? null : done.reduce((s, c) => s + c.confidence, 0) / done.length,
    });
  }
  return {
    timeframe,
    plans: confidences.length,
    counts,
    resolved,
    hit_rate: resolved === 0 ? null : counts.tp_hit / resolved,
    mean_realized_r: withR === 0 ? null : sumR / withR,
    total_realized_r: sumR,
    cost_pct: PLAN_COST_PCT,
    calibration: buckets,
  };
}

/** A published plan as listed with a track record (times as ISO date-times). */
export function planWire(row: PublishedPlanRow) {
  return {
    id: row.id,
    timeframe: row.timeframe,
    side: row.side,
    confidence: row.confidence,
    published_at: iso(row.published_at),
    candle_time: iso(row.candle_time),
    pair: row.pair,
    market_type: row.market_type,
    entry_zone: row.plan.entry_zone,
    entry_price: row.plan.entry_price,
    stop_loss: row.plan.stop_loss,
    take_profits: row.plan.take_profits.map((t) => ({ price: t.price, size_pct: t.size_pct })),
    outcome: row.outcome,
    entered_at: isoOrNull(row.entered_at),
    fill_price: row.fill_price,
    closed_at: isoOrNull(row.closed_at),
    targets_hit: row.targets_hit,
    realized_r: row.realized_r,
  };
}

/** The newest plans of an asset on a timeframe, wire form. */
export async function recentPlans(storage: Storage, assetId: string, timeframe: string, limit = RECENT_PLANS) {
  const rows = await storage.publishedPlans.list({ asset_id: assetId, timeframe, limit });
  return rows.map(planWire);
}
