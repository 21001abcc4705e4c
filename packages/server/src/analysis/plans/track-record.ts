import {
  CALIBRATION_BUCKETS,
  type CalibrationBucket,
  RECENT_PLANS,
  RESOLVED_PLAN_OUTCOMES,
  type TrackRecordFigures,
} from '@marketlens/contract';
import type { PlanOutcome } from '@marketlens/core';
import { iso, isoOrNull } from '../../market/market.js';
import { PLAN_OUTCOMES, type PlanAggregate, type PublishedPlanRow } from '../../storage/plans-types.js';
import type { Storage } from '../../storage/types.js';

/** Outcomes of plans that were entered and closed: the trades the hit rate and mean R are over. */
export const RESOLVED_OUTCOMES: readonly PlanOutcome[] = RESOLVED_PLAN_OUTCOMES;

/** Newest plans listed with a track record (the contract publishes the number). */
export { RECENT_PLANS };

/** The service's own record on one asset and timeframe. */
export interface PlanTrackRecord extends TrackRecordFigures {
  timeframe: string;
  cost_pct: number;
}

/**
 * The figures of the plans the aggregates sum: counts by outcome; hit rate (tp_hit over resolved)
 * and mean realized R over the resolved plans (entered and closed); the calibration, per confidence
 * bucket, of the hit rate against the mean confidence of its resolved plans; the publication range.
 */
export function figuresOf(aggregates: readonly PlanAggregate[]): TrackRecordFigures {
  const counts = Object.fromEntries(PLAN_OUTCOMES.map((o) => [o, 0])) as Record<PlanOutcome, number>;
  const buckets = Array.from({ length: CALIBRATION_BUCKETS }, () => ({
    plans: 0,
    resolved: 0,
    hits: 0,
    confidence: 0,
  }));
  let sumR = 0;
  let withR = 0;
  let first: number | null = null;
  let last: number | null = null;
  for (const a of aggregates) {
    counts[a.outcome] += a.count;
    const bucket = buckets[Math.min(Math.max(a.bucket, 0), CALIBRATION_BUCKETS - 1)];
    bucket.plans += a.count;
    if (RESOLVED_OUTCOMES.includes(a.outcome)) {
      sumR += a.sum_r;
      withR += a.with_r;
      bucket.resolved += a.count;
      bucket.confidence += a.sum_confidence;
      if (a.outcome === 'tp_hit') bucket.hits += a.count;
    }
    if (first === null || a.first_published_at < first) first = a.first_published_at;
    if (last === null || a.last_published_at > last) last = a.last_published_at;
  }
  const resolved = RESOLVED_OUTCOMES.reduce((n, o) => n + counts[o], 0);
  const calibration: CalibrationBucket[] = buckets.map((b, i) => ({
    confidence_min: i / CALIBRATION_BUCKETS,
    confidence_max: (i + 1) / CALIBRATION_BUCKETS,
    plans: b.plans,
    resolved: b.resolved,
    hits: b.hits,
    hit_rate: b.resolved === 0 ? null : b.hits / b.resolved,
    mean_confidence: b.resolved === 0 ? null : b.confidence / b.resolved,
  }));
  return {
    plans: PLAN_OUTCOMES.reduce((n, o) => n + counts[o], 0),
    counts,
    resolved,
    hit_rate: resolved === 0 ? null : counts.tp_hit / resolved,
    mean_realized_r: withR === 0 ? null : sumR / withR,
    total_realized_r: sumR,
    calibration,
    first_published_at: isoOrNull(first),
    last_published_at: isoOrNull(last),
  };
}

/**
 * The track record of an asset on a timeframe, summed by the database; `costPct` is the round trip
 * of the asset's class its plans are published and scored with.
 */
export async function planTrackRecord(
  storage: Storage,
  assetId: string,
  timeframe: string,
  costPct: number,
): Promise<PlanTrackRecord> {
  const aggregates = await storage.publishedPlans.aggregate(CALIBRATION_BUCKETS, { asset_id: assetId, timeframe });
  return { timeframe, ...figuresOf(aggregates), cost_pct: costPct };
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
