import { InputError } from '../errors.js';
import { ema } from '../indicators/ema.js';
import { checkInt, checkNumber } from '../indicators/internal/validate.js';
import { prefixCandles } from '../levels/internal.js';
import type { SupportResistance, Zone } from '../levels/zones.js';
import type { Candles } from '../types.js';

/** Side of a trade. */
export type Direction = 'long' | 'short';

/** Why a plan has no trade (all its prices null). */
export type PlanReason =
  /** The caller asked for no trade (`direction: null`, e.g. a Hold signal). */
  | 'no_direction'
  /** No direction was given and the trend is flat (see {@link buildPlan}). */
  | 'no_trend'
  /** Too few candles to infer a trend. */
  | 'insufficient_data'
  /** The ATR is still warming up (or zero: a flat series), so no distance can be scaled. */
  | 'atr_warmup'
  /** The round-trip cost would eat more than `maxCostR` of the risk (a stop too tight for the fees). */
  | 'risk_below_cost'
  /** The prices would not make a valid plan (for example a stop at or below zero for a long). */
  | 'degenerate_geometry'
  /**
   * The first strong opposing zone (strength at least `obstacleStrength`: a resistance for a long)
   * is nearer than `minRiskReward` times the risk, or the price is already inside it, and no target
   * may lie beyond it.
   */
  | 'target_blocked';

/** One take-profit leg of a {@link TradePlan}. */
export interface TakeProfit {
  price: number;
  /** Share of the position closed at this target, in %: 70 and 30 for two targets, 100 for one. */
  size_pct: number;
  /** Gross risk-reward, before costs: `|price - entry_price| / |entry_price - stop_loss|`. */
  risk_reward: number;
  /**
   * Risk-reward net of the round-trip cost: `(reward - cost) / (risk + cost)` in price terms, with
   * `reward = |price - entry_price|`, `risk = |entry_price - stop_loss|` and
   * `cost = cost_pct / 100 * entry_price`. It is the R a simulated win nets divided by the R a
   * simulated loss costs, both net of the same round trip; negative when the cost exceeds the reward.
   */
  risk_reward_net: number;
}

/** A trade plan ("zone"): where to enter, where the idea is wrong, where to take profit. */
export interface TradePlan {
  /** The trade's side; null when there is no trade (then `reason` says why and every price is null). */
  direction: Direction | null;
  /** The side that was considered (asked for or inferred), also when it gave no trade. */
  bias: Direction | null;
  /** Why there is no trade; null for a complete plan. */
  reason: PlanReason | null;
  /** Index of the last candle the plan read. */
  published_index: number;
  /** Open time of that candle (ms UTC). */
  published_time: number;
  /** Close of that candle. */
  mark: number;
  /** ATR at that candle (the levels' ATR); null during the warm-up. */
  atr: number | null;
  /** The price band to enter in. */
  entry_zone: { low: number; high: number } | null;
  /**
   * Reference entry for risk and reward: the band edge the price reaches first (the top of the band
   * for a long, the bottom for a short), so the quoted risk-reward is the least favourable fill.
   */
  entry_price: number | null;
  /** The level whose break proves the idea wrong (a support's low for a long). */
  invalidation: number | null;
  /** Beyond the invalidation by a buffer, and never within noise of the entry. */
  stop_loss: number | null;
  /** One or two targets on the profit side, nearest first. Empty when there is no trade. */
  take_profits: TakeProfit[];
  /** `|entry_price - stop_loss| / entry_price * 100`. */
  risk_pct: number | null;
  /** Round-trip cost (fees and spread) in % of the entry price behind `risk_reward_net`; null when there is no trade. */
  cost_pct: number | null;
  /** Candles the trade is given from its entry before a time stop. */
  horizon_bars: number | null;
  /** Candles after publication during which the entry band must be reached, else the plan expires. */
  entry_window_bars: number | null;
}

/** Options of {@link buildPlan}. */
export interface PlanOptions {
  /** `'long'` or `'short'` (e.g. from the signal), `null` for no trade; omitted: inferred from the trend. */
  direction?: Direction | null;
  /** Fast EMA of the trend inference. Default 20. */
  trendFast?: number;
  /** Slow EMA of the trend inference. Default 50. */
  trendSlow?: number;
  /** The fast EMA must clear the slow one by this many ATRs. Default 0.1. */
  trendDeadbandAtr?: number;
  /** Enter at the nearest own-side zone when its near edge is within this many ATRs of the mark. Default 1. */
  maxPullbackAtr?: number;
  /** Width of the entry band at the mark when no zone is within reach. Default 0.25 ATR. */
  entryWidthAtr?: number;
  /** An entry band taken from a zone is cut to this many ATRs from its near edge. Default 1. */
  maxEntryWidthAtr?: number;
  /** Stop distance beyond the invalidation level. Default 0.25 ATR. */
  stopBufferAtr?: number;
  /** Minimum stop distance from the entry price (noise). Default 0.5 ATR. */
  minStopAtr?: number;
  /** A zone further than this many ATRs below the entry (for a long) is not used as invalidation. Default 3. */
  maxStopAtr?: number;
  /** Invalidation without a usable zone: this many ATRs beyond the entry band. Default 1. */
  fallbackInvalidationAtr?: number;
  /**
   * Target 1 must pay at least this gross risk-reward; nearer weak opposing zones are skipped, and a
   * strong one (see `obstacleStrength`) that pays less means no trade. Default 1.
   */
  minRiskReward?: number;
  /**
   * An opposing zone at least this strong (`Zone.strength`, 0..1) is an obstacle: no target, the
   * fallback included, lies beyond its near edge. A value above 1 turns the rule off; 0 makes every
   * opposing zone an obstacle. Default 0.6, a touch score of about 2.7: a fresh major swing and a
   * fresh minor one at average volume. The rule keeps targets where price is expected to stall; on
   * the real series walked forward it left the mean realized R about unchanged at 0.6 and 0.7 and
   * lowered it at 0.5, so the default is the lowest threshold that costs nothing measured.
   */
  obstacleStrength?: number;
  /** The single target when no opposing zone qualifies, in risk multiples. Default 2. */
  fallbackRiskReward?: number;
  /** Opposing zones further than this many ATRs from the entry are not targets. Default 6. */
  maxTargetAtr?: number;
  /** Target 2 must be at least this many ATRs beyond target 1, and above it. Default 0.5. */
  minTargetGapAtr?: number;
  /** Fixed horizon in candles; default derived from the distance to the last target (see {@link buildPlan}). */
  horizonBars?: number;
  /** Bounds of the derived horizon. Defaults 5 and 50. */
  minHorizonBars?: number;
  maxHorizonBars?: number;
  /** Candles after publication to reach the entry band. Default 5. */
  entryWindowBars?: number;
  /**
   * Round-trip cost (fees and spread) in % of the entry price, as in the simulation. Default 0.2; for a
   * given market pass `roundTripCostPct({ assetClass })`.
   */
  costPct?: number;
  /** No trade when the cost exceeds this share of the risk (`costPct / risk_pct`). Default 0.5. */
  maxCostR?: number;
}

interface Params {
  fast: number;
  slow: number;
  deadband: number;
  maxPullback: number;
  entryWidth: number;
  maxEntryWidth: number;
  stopBuffer: number;
  minStop: number;
  maxStop: number;
  fallbackInvalidation: number;
  minRR: number;
  obstacle: number;
  fallbackRR: number;
  maxTarget: number;
  minGap: number;
  horizon: number | undefined;
  minHorizon: number;
  maxHorizon: number;
  entryWindow: number;
  costPct: number;
  maxCostR: number;
}

const BIG = 1e6;
const DEFAULT_OBSTACLE_STRENGTH = 0.6;

function paramsOf(o: PlanOptions | undefined): Params {
  const minHorizon = checkInt('minHorizonBars', o?.minHorizonBars ?? 5, 1);
  return {
    fast: checkInt('trendFast', o?.trendFast ?? 20, 1),
    slow: checkInt('trendSlow', o?.trendSlow ?? 50, 1),
    deadband: checkNumber('trendDeadbandAtr', o?.trendDeadbandAtr ?? 0.1, 0, BIG),
    maxPullback: checkNumber('maxPullbackAtr', o?.maxPullbackAtr ?? 1, 0, BIG),
    entryWidth: checkNumber('entryWidthAtr', o?.entryWidthAtr ?? 0.25, 0, BIG),
    maxEntryWidth: checkNumber('maxEntryWidthAtr', o?.maxEntryWidthAtr ?? 1, 0, BIG),
    stopBuffer: checkNumber('stopBufferAtr', o?.stopBufferAtr ?? 0.25, 0, BIG),
    minStop: checkNumber('minStopAtr', o?.minStopAtr ?? 0.5, Number.MIN_VALUE, BIG),
    maxStop: checkNumber('maxStopAtr', o?.maxStopAtr ?? 3, 0, BIG),
    fallbackInvalidation: checkNumber('fallbackInvalidationAtr', o?.fallbackInvalidationAtr ?? 1, 0, BIG),
    minRR: checkNumber('minRiskReward', o?.minRiskReward ?? 1, 0, BIG),
    obstacle: checkNumber('obstacleStrength', o?.obstacleStrength ?? DEFAULT_OBSTACLE_STRENGTH, 0, BIG),
    fallbackRR: checkNumber('fallbackRiskReward', o?.fallbackRiskReward ?? 2, Number.MIN_VALUE, BIG),
    maxTarget: checkNumber('maxTargetAtr', o?.maxTargetAtr ?? 6, 0, BIG),
    minGap: checkNumber('minTargetGapAtr', o?.minTargetGapAtr ?? 0.5, 0, BIG),
    horizon: o?.horizonBars === undefined ? undefined : checkInt('horizonBars', o.horizonBars, 1),
    minHorizon,
    maxHorizon: checkInt('maxHorizonBars', o?.maxHorizonBars ?? 50, minHorizon),
    entryWindow: checkInt('entryWindowBars', o?.entryWindowBars ?? 5, 1),
    costPct: checkNumber('costPct', o?.costPct ?? 0.2, 0, 100),
    maxCostR: checkNumber('maxCostR', o?.maxCostR ?? 0.5, 0, BIG),
  };
}

function checkDirection(d: unknown): Direction | null | undefined {
  if (d === undefined || d === null || d === 'long' || d === 'short') return d;
  throw new InputError('invalid_option', `direction must be 'long', 'short' or null, got ${String(d)}`, 'direction');
}

/** Trend from the EMAs of the close: long when fast > slow + deadband and close > slow; short mirrored. */
function inferDirection(
  close: Float64Array,
  end: number,
  atr: number,
  p: Params,
): Direction | 'no_trend' | 'insufficient_data' {
  const need = Math.max(p.fast, p.slow);
  if (end + 1 < need) return 'insufficient_data';
  // EMAs seeded at most 10 slow periods back: converged to ~1e-8, and the cost stays bounded.
  const recent = close.subarray(Math.max(0, end + 1 - 10 * need), end + 1);
  const last = recent.length - 1;
  const fast = ema(recent, { period: p.fast })[last];
  const slow = ema(recent, { period: p.slow })[last];
  const c = close[end];
  const band = p.deadband * atr;
  if (fast - slow > band && c > slow) return 'long';
  if (slow - fast > band && c < slow) return 'short';
  return 'no_trend';
}

/** A zone in long-side coordinates: prices multiplied by `s` (+1 long, -1 short), so a short reads as a long. */
interface Band {
  low: number;
  high: number;
  mid: number;
  strength: number;
}

function toSide(z: Zone, s: number): Band {
  const { strength } = z;
  return s > 0
    ? { low: z.low, high: z.high, mid: z.mid, strength }
    : { low: -z.high, high: -z.low, mid: -z.mid, strength };
}

/**
 * Builds a trade plan ("zone") as of the levels' candle: a direction, an entry band, a stop beyond the
 * invalidation level and at most two take-profit targets, sized 70% / 30% (100% with one target).
 *
 * Direction: `options.direction` when given (`null` means no trade); otherwise inferred from the trend,
 * long when EMA(trendFast) is above EMA(trendSlow) by more than `trendDeadbandAtr` ATR and the close is
 * above EMA(trendSlow), short mirrored, else no trade (`reason: 'no_trend'`). Both EMAs (TA-Lib `EMA`)
 * run over at most the last `10 * max(trendFast, trendSlow)` candles, which bounds the cost of a
 * walk-forward and differs from a full-history EMA by about 1e-8 relative.
 *
 * Geometry for a long (a short is the exact mirror: the same steps on negated prices):
 * - Entry band: if the nearest zone at or below the mark (its middle at or below the close) has its top
 *   within `maxPullbackAtr` ATR of the mark, the band is that zone up to the mark (cut to
 *   `maxEntryWidthAtr` ATR from its top), and its low is the invalidation level. Otherwise the band is
 *   `[mark - entryWidthAtr * ATR, mark]`, and the invalidation is that zone's low if it lies below the
 *   band and the stop it gives lies within `maxStopAtr` ATR of the entry, else
 *   `fallbackInvalidationAtr` ATR below the band.
 * - `entry_price` is the top of the band (the first price a falling market fills); the stop is
 *   `stopBufferAtr` ATR below the invalidation, and at least `minStopAtr` ATR below `entry_price`.
 * - Obstacle: the first zone above the mark (by its lower edge) whose `strength` is at least
 *   `obstacleStrength`. No target lies beyond its lower edge (the ceiling). A resistance the price is
 *   inside (its middle above the close, its low below) is at distance zero from an entry at the mark,
 *   and from a pullback entry pays only the way up to its low. If the ceiling pays less than
 *   `minRiskReward` times the risk there is no trade (`target_blocked`).
 * - Targets: the lower edges of the zones above the mark, nearest first, up to the ceiling, that pay
 *   at least `minRiskReward` and lie within `maxTargetAtr` ATR; target 2 at least `minTargetGapAtr`
 *   ATR beyond target 1 and above it (with a gap of 0, never at the same price). With none, one target at `fallbackRiskReward` times the risk, cut to the
 *   ceiling. Weaker zones may be passed: below the threshold a zone is not expected to stop the price.
 *   The swing highs the levels keep are their zones, so `obstacleStrength: 0` caps every target at
 *   the nearest one above; with no zone above (the price is above every kept swing of the window)
 *   nothing caps the fallback.
 * - Costs: `cost_pct` is `costPct` (null without a trade), the round trip in % of the entry price
 *   (`roundTripCostPct` gives a market's); each target publishes
 *   `risk_reward` gross and `risk_reward_net = (reward - cost) / (risk + cost)` in price terms, with
 *   `cost = costPct / 100 * entry_price` (the ratio of a win to a loss of the simulation, both net of
 *   the same round trip). Targets are chosen on the gross R.
 * - Horizon: `horizonBars`, or `ceil((distance to the last target / ATR)^2)` (a random walk's time to
 *   cover that distance) clamped to `[minHorizonBars, maxHorizonBars]`.
 *
 * No trade (direction null, all prices null, `reason` set) for an explicit null direction, the ATR
 * warm-up, a flat trend (when the direction is inferred), prices that would not be positive, a risk
 * so small that the round-trip cost exceeds `maxCostR` of it, or a strong opposing zone too near
 * (checked in that order). The plan reads
 * only candles up to `levels.as_of_index`; use it walk-forward by building at `i` and simulating from
 * `i + 1`.
 * Defaults: see {@link PlanOptions}.
 * @example
 * ```ts
 * import { buildPlan, supportResistance } from '@marketlens/core';
 *
 * // 300 daily candles of a made-up series; real ones come from @marketlens/exchanges
 * const close = Float64Array.from({ length: 300 }, (_, i) => 100 + i / 10 + 8 * Math.sin(i / 9));
 * const candles = {
 *   time: close.map((_, i) => Date.UTC(2024, 0, 1) + i * 86_400_000),
 *   open: close.map((c, i) => (i > 0 ? close[i - 1] : c)),
 *   high: close.map((c) => c * 1.01),
 *   low: close.map((c) => c * 0.99),
 *   close,
 *   volume: close.map((_, i) => 1000 + (i % 7) * 100),
 * };
 * const plan = buildPlan(candles, supportResistance(candles), { direction: 'long' });
 * if (plan.direction === null) console.log('no trade:', plan.reason);
 * else console.log(plan.entry_zone, plan.stop_loss, plan.take_profits.map((t) => [t.price, t.size_pct]));
 * ```
 */
export function buildPlan(candles: Candles, levels: SupportResistance, options?: PlanOptions): TradePlan {
  const p = paramsOf(options);
  const asked = checkDirection(options?.direction);
  if (levels == null || typeof levels !== 'object' || !Array.isArray(levels.zones)) {
    throw new InputError('invalid_option', 'levels must be the result of supportResistance()', 'levels');
  }
  const { view, end } = prefixCandles(candles, levels.as_of_index, 10 * Math.max(p.fast, p.slow));
  if (view.time[end] !== levels.as_of_time) {
    throw new InputError('invalid_option', 'levels were computed on other candles (as_of_time differs)', 'levels');
  }
  const mark = view.close[end];
  const atr = levels.atr;
  const base: TradePlan = {
    direction: null,
    bias: null,
    reason: null,
    published_index: end,
    published_time: view.time[end],
    mark,
    atr,
    entry_zone: null,
    entry_price: null,
    invalidation: null,
    stop_loss: null,
    take_profits: [],
    risk_pct: null,
    cost_pct: null,
    horizon_bars: null,
    entry_window_bars: null,
  };
  if (asked === null) return { ...base, reason: 'no_direction' };
  if (atr === null || !(atr > 0)) return { ...base, bias: asked ?? null, reason: 'atr_warmup' };
  let direction: Direction;
  if (asked === undefined) {
    const inferred = inferDirection(view.close, end, atr, p);
    if (inferred !== 'long' && inferred !== 'short') return { ...base, reason: inferred };
    direction = inferred;
  } else direction = asked;

  const s = direction === 'long' ? 1 : -1;
  const m = s * mark;
  const own: Band[] = [];
  const opposing: Band[] = [];
  for (const z of levels.zones) {
    const b = toSide(z, s);
    if (b.mid <= m) own.push(b);
    else opposing.push(b);
  }
  let nearest: Band | undefined;
  for (const b of own) if (nearest === undefined || b.mid > nearest.mid) nearest = b;
  opposing.sort((a, b) => a.low - b.low);

  // Entry band and invalidation (long-side coordinates).
  let bandHigh: number;
  let bandLow: number;
  let invalidation: number;
  if (nearest !== undefined && Math.min(nearest.high, m) >= m - p.maxPullback * atr) {
    bandHigh = Math.min(nearest.high, m);
    bandLow = Math.max(nearest.low, bandHigh - p.maxEntryWidth * atr);
    invalidation = nearest.low;
  } else {
    bandHigh = m;
    bandLow = m - p.entryWidth * atr;
    invalidation = bandLow - p.fallbackInvalidation * atr;
    if (
      nearest !== undefined &&
      nearest.low < bandLow &&
      bandHigh - (nearest.low - p.stopBuffer * atr) <= p.maxStop * atr
    ) {
      invalidation = nearest.low;
    }
  }
  const entry = bandHigh;
  const stop = Math.min(invalidation - p.stopBuffer * atr, entry - p.minStop * atr);
  const risk = entry - stop;

  // The ceiling: the near edge of the first strong opposing zone, which no target passes; a zone the
  // price is already inside (its low at or below the entry) stops the trade at distance zero.
  const obstacle = opposing.find((z) => z.strength >= p.obstacle);
  const ceiling = obstacle === undefined ? Number.POSITIVE_INFINITY : Math.max(obstacle.low, entry);
  const blocked = ceiling - entry < p.minRR * risk;

  // Targets: near edges of the opposing zones up to the ceiling.
  const targets: number[] = [];
  if (!blocked) {
    for (const z of opposing) {
      if (targets.length === 2 || z.low > ceiling) break;
      const t = z.low;
      if (t - entry < p.minRR * risk || t - entry > p.maxTarget * atr) continue;
      // Target 2 lies beyond target 1 by the gap, and never at its price (a gap of 0 allowed one).
      if (targets.length === 1 && (t <= targets[0] || t < targets[0] + p.minGap * atr)) continue;
      targets.push(t);
    }
    if (targets.length === 0) targets.push(Math.min(entry + p.fallbackRR * risk, ceiling));
  }

  // Back to prices; every price of a real market is positive.
  const price = (x: number): number => s * x;
  const prices = [bandLow, bandHigh, invalidation, stop, ...targets].map(price);
  if (!(risk > 0) || prices.some((x) => !(x > 0) || !Number.isFinite(x))) {
    return { ...base, bias: direction, reason: 'degenerate_geometry' };
  }
  const entryPrice = price(entry);
  const riskPct = (risk / entryPrice) * 100;
  if (p.costPct > p.maxCostR * riskPct) return { ...base, bias: direction, reason: 'risk_below_cost' };
  if (blocked) return { ...base, bias: direction, reason: 'target_blocked' };
  const cost = (p.costPct / 100) * entryPrice;
  const last = targets[targets.length - 1];
  // (the 1e-9 keeps an exact square such as 9 from rounding up to 10 on one side of a mirror)
  const bars = Math.ceil(((last - entry) / atr) ** 2 - 1e-9);
  const horizon = p.horizon ?? Math.min(p.maxHorizon, Math.max(p.minHorizon, bars));
  const sizes = targets.length === 2 ? [70, 30] : [100];
  return {
    ...base,
    direction,
    bias: direction,
    entry_zone: s > 0 ? { low: bandLow, high: bandHigh } : { low: -bandHigh, high: -bandLow },
    entry_price: entryPrice,
    invalidation: price(invalidation),
    stop_loss: price(stop),
    take_profits: targets.map((t, k) => ({
      price: price(t),
      size_pct: sizes[k],
      risk_reward: (t - entry) / risk,
      risk_reward_net: (t - entry - cost) / (risk + cost),
    })),
    risk_pct: riskPct,
    cost_pct: p.costPct,
    horizon_bars: horizon,
    entry_window_bars: p.entryWindow,
  };
}
