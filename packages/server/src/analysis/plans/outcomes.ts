import { type Candles, type PlanOutcome, simulatePlan } from '@marketlens/core';
import { type CandleSeries, candleOpenTime, MAX_CANDLES, TIMEFRAME_MS, type Timeframe } from '@marketlens/exchanges';
import { marketOf } from '../../market/market.js';
import type { AppDeps } from '../../platform/deps.js';
import {
  canMove,
  FINAL_OUTCOMES,
  PLAN_TRANSITIONS,
  type PlanProgress,
  type PublishedPlanRow,
} from '../../storage/plans-types.js';

/**
 * The round-trip cost, in % of the fill, of a plan recorded without one (every published plan
 * carries its own `cost_pct`, the asset class's, which is what its outcome deducts), and the
 * pilot's flat cost.
 */
export const PLAN_COST_PCT = 0.2;

/** The round trip an outcome deducts: the plan's own cost (its asset class's), else {@link PLAN_COST_PCT}. */
export function planCostPct(plan: { cost_pct: number | null }): number {
  return typeof plan.cost_pct === 'number' && Number.isFinite(plan.cost_pct) && plan.cost_pct >= 0
    ? plan.cost_pct
    : PLAN_COST_PCT;
}

/** Open plans the job reads per run, oldest first. */
export const OUTCOME_BATCH = 1000;

/**
 * The steps from `from` to `to` along the allowed moves (`PLAN_TRANSITIONS`): `[]` when equal,
 * `['entered', 'tp_hit']` from `pending` to `tp_hit`, null when `to` cannot be reached (backwards,
 * or out of a final state).
 */
export function pathBetween(from: PlanOutcome, to: PlanOutcome): PlanOutcome[] | null {
  if (from === to) return [];
  if (canMove(from, to)) return [to];
  for (const mid of PLAN_TRANSITIONS[from]) if (canMove(mid, to)) return [mid, to];
  return null;
}

/** Index of the first candle opening at or after `t` (times ascending). */
function firstAtOrAfter(time: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = time.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid] >= t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * A plan's outcome from closed candles: core's `simulatePlan` with the plan's own round-trip cost
 * (its asset class's, {@link planCostPct}), walking only the
 * candles that open at or after the publication (never one the plan could have seen, nor the rest
 * of the candle it was published in). Null when no such candle has closed yet, or when the candles
 * do not reach back to the publication.
 */
export function progressOf(row: PublishedPlanRow, candles: Candles, now: number): PlanProgress | null {
  const from = firstAtOrAfter(candles.time, row.published_at);
  if (from >= candles.time.length) return null;
  // The candles must reach back to the first one after the publication, or the walk would start late.
  const tfMs = TIMEFRAME_MS[row.timeframe as Timeframe] ?? 0;
  if (from === 0 && candles.time[0] >= row.published_at + tfMs) return null;
  const sim = simulatePlan(row.plan, candles, { fromIndex: from, costPct: planCostPct(row.plan) });
  if (sim.outcome === null) return null;
  return {
    outcome: sim.outcome,
    entered_at: sim.entered_time,
    fill_price: sim.entry_price,
    closed_at: sim.exit_time,
    targets_hit: sim.targets_hit,
    realized_r: sim.realized_r,
    return_pct: sim.return_pct,
    legs: sim.legs,
    reason: sim.reason,
    updated_at: now,
  };
}

/** The progress written for an intermediate step (`entered` on the way to a final state). */
function enteredStep(p: PlanProgress): PlanProgress {
  return {
    ...p,
    outcome: 'entered',
    closed_at: null,
    targets_hit: 0,
    realized_r: null,
    return_pct: null,
    legs: p.legs.map((l) => ({
      ...l,
      exit: null,
      exit_index: null,
      exit_time: null,
      exit_price: null,
      r: null,
      return_pct: null,
    })),
  };
}

function changed(row: PublishedPlanRow, p: PlanProgress): boolean {
  return p.outcome !== row.outcome || (p.outcome === 'entered' && JSON.stringify(p.legs) !== JSON.stringify(row.legs));
}

/** One move the job made. */
export interface OutcomeMove {
  plan_id: string;
  from: PlanOutcome;
  to: PlanOutcome;
}

/**
 * Writes a plan's new progress one allowed step at a time (compare-and-set on the stored state);
 * a progress that would move backwards is refused and nothing is written. Returns the moves made.
 */
export async function applyProgress(deps: AppDeps, row: PublishedPlanRow, p: PlanProgress): Promise<OutcomeMove[]> {
  if (!changed(row, p)) return [];
  const path = pathBetween(row.outcome, p.outcome);
  if (path === null) return [];
  const moves: OutcomeMove[] = [];
  let from = row.outcome;
  if (path.length === 0) {
    // Still entered; a leg closed (target 1) while the rest runs.
    await deps.storage.publishedPlans.advance(row.id, from, p);
    return moves;
  }
  for (const to of path) {
    const step = to === p.outcome ? p : enteredStep(p);
    if (!(await deps.storage.publishedPlans.advance(row.id, from, step))) break;
    moves.push({ plan_id: row.id, from, to });
    from = to;
  }
  return moves;
}

/** How many candles cover `timeframe` from `since` to the live candle (exclusive), at most MAX_CANDLES. */
function candlesSince(timeframe: Timeframe, since: number, liveOpen: number): number {
  return Math.min(MAX_CANDLES, Math.ceil((liveOpen - since) / TIMEFRAME_MS[timeframe]) + 2);
}

/**
 * The outcome job: advances every open plan (pending or entered) with the closed candles of its
 * market that opened at or after its publication. Plans are read in one batch, their candles once
 * per (asset, timeframe, pair). A market that cannot be read now is tried again on the next run.
 */
export async function advanceOutcomes(deps: AppDeps): Promise<OutcomeMove[]> {
  const market = marketOf(deps);
  const now = deps.now();
  const rows = await deps.storage.publishedPlans.open(OUTCOME_BATCH);
  const groups = new Map<string, PublishedPlanRow[]>();
  for (const row of rows) {
    if (row.venue !== market.venue) continue;
    const key = `${row.asset_id}|${row.timeframe}|${row.pair}`;
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  const moves: OutcomeMove[] = [];
  for (const list of groups.values()) {
    const { asset_id, pair } = list[0];
    const timeframe = list[0].timeframe as Timeframe;
    if (!(timeframe in TIMEFRAME_MS)) continue;
    const liveOpen = candleOpenTime(timeframe, now);
    const since = Math.min(...list.map((r) => r.published_at));
    if (liveOpen <= since) continue;
    let series: CandleSeries;
    try {
      series = await market.candles({
        asset_id,
        timeframe,
        pair,
        limit: candlesSince(timeframe, since, liveOpen),
        end: liveOpen,
      });
    } catch {
      continue;
    }
    for (const row of list) {
      if (FINAL_OUTCOMES.has(row.outcome)) continue;
      let p: PlanProgress | null;
      try {
        p = progressOf(row, series.candles, now);
      } catch {
        // A malformed candle: this plan waits for the next run.
        continue;
      }
      if (p !== null) moves.push(...(await applyProgress(deps, row, p)));
    }
  }
  return moves;
}
