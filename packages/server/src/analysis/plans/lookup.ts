import type { Direction, PublishedPlanRecord } from '@marketlens/core';
import type { PublishedPlanRow } from '../../storage/plans-types.js';
import type { Storage } from '../../storage/types.js';

/** Published plans scanned back from the entry time for the one in force (older ones closed long before). */
const LOOKBACK = 200;

/** What {@link publishedPlanAtEntry} looks for. */
export interface PlanAtEntryQuery {
  asset_id: string;
  /** The timeframe of the assessment; null or absent: any timeframe. */
  timeframe?: string | null;
  side: Direction;
  /** Entry time of the position (ms UTC). */
  entry_time: number;
}

/** A stored plan as core's `PublishedPlanRecord` (the input of `assessPosition`). */
export function publishedRecordOf(row: PublishedPlanRow): PublishedPlanRecord {
  return {
    published_time: row.published_at,
    timeframe: row.timeframe,
    plan: row.plan,
    outcome: row.outcome,
    realized_r: row.realized_r,
    closed_time: row.closed_at,
  };
}

/**
 * The published plan in force when a position was entered, as core's `PublishedPlanRecord` (for
 * `published_at_entry` of the position analysis), or null: among the plans of the asset on the
 * position's side (and timeframe, when given) published at or before the entry and not closed at
 * or before it, the latest published. The same rule as core's `assessPosition` applies, so passing
 * the result as `published_plans: [record]` gives the same match.
 */
export async function publishedPlanAtEntry(
  storage: Storage,
  query: PlanAtEntryQuery,
): Promise<PublishedPlanRecord | null> {
  if (!Number.isFinite(query.entry_time)) return null;
  const rows = await storage.publishedPlans.list({
    asset_id: query.asset_id,
    ...(query.timeframe ? { timeframe: query.timeframe } : {}),
    side: query.side,
    published_until: query.entry_time,
    limit: LOOKBACK,
  });
  const inForce = rows.find((r) => r.closed_at === null || r.closed_at > query.entry_time);
  return inForce === undefined ? null : publishedRecordOf(inForce);
}
