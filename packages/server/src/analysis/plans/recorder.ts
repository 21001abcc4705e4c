import { randomUUID } from 'node:crypto';
import type { MarketData } from '@marketlens/exchanges';
import { requireAsset } from '../../market/assets.js';
import { marketOf } from '../../market/market.js';
import type { AppDeps } from '../../platform/deps.js';
import { CHART_DEPTH, type Timeframe } from '../../platform/product-rules.js';
import type { PlanSource, PublishedPlanRow } from '../../storage/plans-types.js';
import { type AnalysisResult, analysisOf } from '../analysis.js';

/** Results already offered to storage: a cached analysis served many times is recorded once. */
const offered = new WeakSet<AnalysisResult>();

/**
 * The row of a served analysis's plan, published now; null for a plan without a trade (a Hold, a
 * flat trend, the warm-up: nothing to enter, nothing to score).
 */
export function planRowOf(result: AnalysisResult, source: PlanSource, publishedAt: number): PublishedPlanRow | null {
  const plan = result.analysis.zone;
  if (plan.direction === null) return null;
  return {
    id: randomUUID(),
    asset_id: result.asset.id,
    timeframe: result.timeframe,
    candle_time: plan.published_time,
    published_at: publishedAt,
    venue: result.venue,
    pair: result.pair,
    market_type: result.market_type,
    side: plan.direction,
    confidence: result.analysis.signal.confidence,
    confidence_low: result.analysis.signal.edge?.probability_low ?? null,
    confidence_high: result.analysis.signal.edge?.probability_high ?? null,
    source,
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
  };
}

/** Whether {@link recordServedPlan} has nothing (left) to do for `result` served from `market`. */
export function planRecorded(deps: AppDeps, market: MarketData, result: AnalysisResult): boolean {
  return offered.has(result) || market !== marketOf(deps);
}

/**
 * Records the plan of an analysis the service is serving, once per (asset, timeframe, candle it was
 * computed on): the first publication of a candle's plan is the one scored. Only plans read from
 * the configured market are recorded (the outcome job reads that market); a plan of another venue
 * (`connection`) is served but not scored. Never throws: recording must not fail a response.
 * Returns whether a new row was written.
 */
export async function recordServedPlan(
  deps: AppDeps,
  market: MarketData,
  result: AnalysisResult,
  source: PlanSource = 'analysis',
): Promise<boolean> {
  if (planRecorded(deps, market, result)) return false;
  offered.add(result);
  const row = planRowOf(result, source, deps.now());
  if (row === null) return false;
  try {
    return await deps.storage.publishedPlans.record(row);
  } catch {
    offered.delete(result);
    return false;
  }
}

/**
 * The publishing job's step: the current plan of every asset of `assetIds` on `timeframe`, computed
 * as `GET /v2/analysis/{asset_id}` computes it at its defaults (same cache), recorded when new. An
 * asset the venue cannot serve right now is left for the next run. Returns the number recorded.
 */
export async function publishPlans(deps: AppDeps, assetIds: readonly string[], timeframe: Timeframe): Promise<number> {
  const market = marketOf(deps);
  let recorded = 0;
  for (const assetId of assetIds) {
    try {
      const asset = requireAsset(deps, assetId, market);
      const result = await analysisOf(deps, market, asset, { asset_id: assetId, timeframe, limit: CHART_DEPTH.free });
      if (await recordServedPlan(deps, market, result, 'publisher')) recorded++;
    } catch {
      // Unknown asset, stablecoin, venue down: nothing to publish for it this time.
    }
  }
  return recorded;
}
