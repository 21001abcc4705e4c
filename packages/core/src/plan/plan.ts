import { InputError } from '../errors.js';
import { ema } from '../indicators/ema.js';
import { checkInt, checkNumber } from '../indicators/internal/validate.js';
import { prefixCandles } from '../levels/internal.js';
import { fractalsInto, type Swing } from '../levels/swings.js';
import type { SupportResistance, Zone, ZoneSource } from '../levels/zones.js';
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
   * The first opposing level that counts as an obstacle (see `obstacleStrength`: a resistance for a
   * long) is nearer than `minRiskReward` times the risk, or the price is already inside it, and no target
   * may lie beyond it.
   */
  | 'target_blocked'
  /**
   * Target 1 pays less than `minNetRiskReward` (default 1.5) after the round-trip cost: the plan is
   * not published (the analysis's signal then holds with the same reason).
   */
  | 'poor_reward'
  /**
   * The only candle left in the session for an entry is its last one (`sessionBarsLeft: 1`): no
   * entry is taken into a session's close.
   */
  | 'session_close';

/**
 * How the plan enters: `'market'` at the close's band (the next candle that trades into it), `'limit'`
 * a resting order at the near edge of a support (a long; a resistance for a short) below the close,
 * filled only if the price comes back to it within `entry_window_bars`, else the plan expires unfilled.
 */
export type EntryType = 'market' | 'limit';

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
  /** `'market'` or `'limit'` (see {@link EntryType}); null when there is no trade. */
  entry_type: EntryType | null;
  /** The price band to enter in. */
  entry_zone: { low: number; high: number } | null;
  /**
   * Reference entry for risk and reward: the band edge the price reaches first (the top of the band
   * for a long, the bottom for a short), so the quoted risk-reward is the least favourable fill.
   */
  entry_price: number | null;
  /**
   * The level whose break proves the idea wrong: for a long, the low of the latest swing low below
   * the entry band, or of the zone that holds it (a short mirrors it), else a support's low or a
   * fallback distance (see {@link buildPlan}).
   */
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
  /**
   * The geometry of issue 38 (a chartist's): the stop beyond the structure that invalidates the idea,
   * target 1 at or before the first level in the way of any strength, `poor_reward` below
   * `minNetRiskReward`, limit entries at the supports within `maxLimitAtr`, the time stop from the
   * distance to target 1. Default true (the signal's calibration is fitted on it); false keeps the
   * earlier geometry (see {@link buildPlan}), whose `obstacleStrength` defaults to 0.6.
   */
  structure?: boolean;
  /**
   * When the entry at the close (or at the support within `maxPullbackAtr`) gives no publishable plan,
   * a limit entry at the top of a lower support is tried, the nearest first, up to this many ATRs
   * below the close. Default 3; 0 turns limit entries further down off.
   */
  maxLimitAtr?: number;
  /** Width of the entry band at the mark when no zone is within reach. Default 0.25 ATR. */
  entryWidthAtr?: number;
  /** An entry band taken from a zone is cut to this many ATRs from its near edge. Default 1. */
  maxEntryWidthAtr?: number;
  /** Stop distance beyond the invalidation level. Default 0.25 ATR. */
  stopBufferAtr?: number;
  /**
   * Candles back searched for the structural swing (a Williams fractal of two candles each side)
   * whose break invalidates the idea. Default 100; 0 turns the search off.
   */
  structureBars?: number;
  /** Minimum stop distance from the entry price (noise). Default 0.5 ATR. */
  minStopAtr?: number;
  /**
   * Without a structural swing, a zone further than this many ATRs below the entry (for a long) is
   * not used as invalidation. Default 3.
   */
  maxStopAtr?: number;
  /** Invalidation without a usable zone: this many ATRs beyond the entry band. Default 1. */
  fallbackInvalidationAtr?: number;
  /** Target 1 must pay at least this gross risk-reward, else no trade (`target_blocked`). Default 1. */
  minRiskReward?: number;
  /**
   * Target 1 must pay at least this risk-reward net of the round-trip cost (`risk_reward_net`), else
   * the plan is not published (`poor_reward`). Default 1.5.
   */
  minNetRiskReward?: number;
  /**
   * An opposing zone at least this strong (`Zone.strength`, 0..1) is an obstacle: target 1 lies at
   * or before the first one's near edge and target 2 at or before the second's. A value above 1
   * leaves only the fallback target. Omitted (with `structure`): a level "of any strength" in the
   * chartist's sense, not every minor pivot: a zone with at least {@link OBSTACLE_MIN_TOUCHES} (2)
   * swings in it, or one drawn from the higher timeframe (`Zone.timeframe` is the levels'
   * `higher_timeframe`), or one holding a range extreme (`all_time_high`, `all_time_low`,
   * `high_52w`, `low_52w`). Without `structure` the default is 0.6.
   */
  obstacleStrength?: number;
  /** The single target when no opposing zone qualifies, in risk multiples. Default 2. */
  fallbackRiskReward?: number;
  /** Opposing zones further than this many ATRs from the entry are not targets. Default 6. */
  maxTargetAtr?: number;
  /** Target 2 must be at least this many ATRs beyond target 1, and above it. Default 0.5. */
  minTargetGapAtr?: number;
  /** Fixed horizon in candles; default derived from the distance to target 1 (see {@link buildPlan}). */
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
  /**
   * For markets with sessions (stocks, indices) on intraday timeframes: how many candles of the
   * current session follow the levels' candle (0 when it was the session's last), from the caller's
   * market calendar; core keeps no calendar. The entry window ends before the session's last candle
   * (`session_close` when that leaves none). Omitted: no session (coins, fx, daily candles).
   */
  sessionBarsLeft?: number;
}

interface Params {
  fast: number;
  slow: number;
  deadband: number;
  structure: boolean;
  maxPullback: number;
  maxLimit: number;
  entryWidth: number;
  maxEntryWidth: number;
  stopBuffer: number;
  structureBars: number;
  minStop: number;
  maxStop: number;
  fallbackInvalidation: number;
  minRR: number;
  minNetRR: number;
  /** Strength an obstacle needs; null: the significance rule (see `obstacleStrength`). */
  obstacle: number | null;
  fallbackRR: number;
  maxTarget: number;
  minGap: number;
  horizon: number | undefined;
  minHorizon: number;
  maxHorizon: number;
  entryWindow: number;
  costPct: number;
  maxCostR: number;
  sessionBarsLeft: number | undefined;
}

const BIG = 1e6;
/**
 * Swings a zone needs to be in the way of a structural plan's target on its own (see
 * `PlanOptions.obstacleStrength`): a level touched twice, not a single minor pivot.
 */
export const OBSTACLE_MIN_TOUCHES = 2;
/** The earlier geometry's obstacle: a fresh major swing and a fresh minor one at average volume. */
const LEGACY_OBSTACLE_STRENGTH = 0.6;
/** Fractal span of the structural swing: two candles each side (Williams). */
const STRUCTURE_SPAN = 2;

function paramsOf(o: PlanOptions | undefined): Params {
  const structure = o?.structure ?? true;
  if (typeof structure !== 'boolean') {
    throw new InputError('invalid_option', `structure must be a boolean, got ${String(structure)}`, 'structure');
  }
  const minHorizon = checkInt('minHorizonBars', o?.minHorizonBars ?? 5, 1);
  return {
    fast: checkInt('trendFast', o?.trendFast ?? 20, 1),
    slow: checkInt('trendSlow', o?.trendSlow ?? 50, 1),
    deadband: checkNumber('trendDeadbandAtr', o?.trendDeadbandAtr ?? 0.1, 0, BIG),
    structure,
    maxPullback: checkNumber('maxPullbackAtr', o?.maxPullbackAtr ?? 1, 0, BIG),
    maxLimit: checkNumber('maxLimitAtr', o?.maxLimitAtr ?? 3, 0, BIG),
    entryWidth: checkNumber('entryWidthAtr', o?.entryWidthAtr ?? 0.25, 0, BIG),
    maxEntryWidth: checkNumber('maxEntryWidthAtr', o?.maxEntryWidthAtr ?? 1, 0, BIG),
    stopBuffer: checkNumber('stopBufferAtr', o?.stopBufferAtr ?? 0.25, 0, BIG),
    structureBars: checkInt('structureBars', o?.structureBars ?? 100, 0, 100_000),
    minStop: checkNumber('minStopAtr', o?.minStopAtr ?? 0.5, Number.MIN_VALUE, BIG),
    maxStop: checkNumber('maxStopAtr', o?.maxStopAtr ?? 3, 0, BIG),
    fallbackInvalidation: checkNumber('fallbackInvalidationAtr', o?.fallbackInvalidationAtr ?? 1, 0, BIG),
    minRR: checkNumber('minRiskReward', o?.minRiskReward ?? 1, 0, BIG),
    minNetRR: checkNumber('minNetRiskReward', o?.minNetRiskReward ?? 1.5, -BIG, BIG),
    obstacle:
      o?.obstacleStrength === undefined && structure
        ? null
        : checkNumber('obstacleStrength', o?.obstacleStrength ?? LEGACY_OBSTACLE_STRENGTH, 0, BIG),
    fallbackRR: checkNumber('fallbackRiskReward', o?.fallbackRiskReward ?? 2, Number.MIN_VALUE, BIG),
    maxTarget: checkNumber('maxTargetAtr', o?.maxTargetAtr ?? 6, 0, BIG),
    minGap: checkNumber('minTargetGapAtr', o?.minTargetGapAtr ?? 0.5, 0, BIG),
    horizon: o?.horizonBars === undefined ? undefined : checkInt('horizonBars', o.horizonBars, 1),
    minHorizon,
    maxHorizon: checkInt('maxHorizonBars', o?.maxHorizonBars ?? 50, minHorizon),
    entryWindow: checkInt('entryWindowBars', o?.entryWindowBars ?? 5, 1),
    costPct: checkNumber('costPct', o?.costPct ?? 0.2, 0, 100),
    maxCostR: checkNumber('maxCostR', o?.maxCostR ?? 0.5, 0, BIG),
    sessionBarsLeft:
      o?.sessionBarsLeft === undefined ? undefined : checkInt('sessionBarsLeft', o.sessionBarsLeft, 0, 100_000),
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
  /** A level of some strength by the rule of `obstacleStrength`'s default (touches, timeframe, extreme). */
  significant: boolean;
}

const EXTREMES: readonly ZoneSource[] = ['all_time_high', 'all_time_low', 'high_52w', 'low_52w'];

function toSide(z: Zone, s: number, higher: string | null = null): Band {
  const { strength } = z;
  const significant =
    z.touches >= OBSTACLE_MIN_TOUCHES ||
    (higher !== null && z.timeframe === higher) ||
    z.sources.some((x) => EXTREMES.includes(x));
  return s > 0
    ? { low: z.low, high: z.high, mid: z.mid, strength, significant }
    : { low: -z.high, high: -z.low, mid: -z.mid, strength, significant };
}

/** Whether a level is in the way of a target: strong enough, or significant by the default rule. */
function isObstacle(b: Band, p: Params): boolean {
  return p.obstacle === null ? b.significant : b.strength >= p.obstacle;
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
 * Geometry (issue 38, `structure` true by default; false gives the earlier one, `legacyPlan` below),
 * for a long (a short is the exact mirror: the same steps on
 * negated prices):
 * - Entry band: if the nearest zone at or below the mark (its middle at or below the close) has its top
 *   within `maxPullbackAtr` ATR of the mark, the band is that zone up to the mark (cut to
 *   `maxEntryWidthAtr` ATR from its top), and its low is the invalidation level. Otherwise the band is
 *   `[mark - entryWidthAtr * ATR, mark]`, and the invalidation is that zone's low if it lies below the
 *   band and the stop it gives lies within `maxStopAtr` ATR of the entry, else
 *   `fallbackInvalidationAtr` ATR below the band.
 * - `entry_price` is the top of the band (the first price a falling market fills); `entry_type` is
 *   `'limit'` when it lies below the close, else `'market'`.
 * - Stop beyond the structure: the latest Williams fractal swing low (two candles each side,
 *   confirmed by the levels' candle, within the last `structureBars` candles) below the entry is the
 *   invalidation, moved down to the low of a zone that holds it; without one, the invalidation
 *   of the entry step. The stop is `stopBufferAtr` ATR below the invalidation and at least
 *   `minStopAtr` ATR below `entry_price`; a stop that falls inside a zone moves below that zone's
 *   low by the buffer (the zone's low becomes the invalidation), so no stop sits inside a level.
 * - Targets at the levels in the way: the obstacles are the zones entirely above the entry with
 *   `strength` at least `obstacleStrength` (default: the levels of some strength, two touches, the
 *   higher timeframe or a range extreme, see {@link PlanOptions.obstacleStrength}), by their lower edge. Target 1 is the lower
 *   edge of the first (cut to `maxTargetAtr` ATR from the entry), target 2 that of the next one
 *   above it (zones sharing target 1's edge are its level) when it lies within `maxTargetAtr` ATR and
 *   at least `minTargetGapAtr` ATR above target 1; with no
 *   obstacle, one target at `fallbackRiskReward` times the risk. So no target lies beyond the level
 *   before it. An entry inside an obstacle whose middle is above the close, or a target 1 paying
 *   less than `minRiskReward` gross, is `target_blocked`.
 * - Limit entries: when that entry gives no plan (any reason from prices to `poor_reward`), the
 *   supports below it (by their middle, nearest first) whose top lies within `maxLimitAtr` ATR of the
 *   close are tried as bands of their own (the zone cut to `maxEntryWidthAtr`, its low the
 *   invalidation without a swing); the first that gives a plan is published, its entry window
 *   `max(entryWindowBars, ceil((distance from the close / ATR)^2))` candles, at most `maxHorizonBars`.
 *   With none, the first entry's reason is given.
 * - Costs: `cost_pct` is `costPct` (null without a trade), the round trip in % of the entry price
 *   (`roundTripCostPct` gives a market's); each target publishes
 *   `risk_reward` gross and `risk_reward_net = (reward - cost) / (risk + cost)` in price terms, with
 *   `cost = costPct / 100 * entry_price` (the ratio of a win to a loss of the simulation, both net of
 *   the same round trip). A target 1 netting less than `minNetRiskReward` (1.5) is `poor_reward`.
 * - Horizon (the time stop): `horizonBars`, or `ceil(2 * (distance to target 1 / ATR)^2)` (twice a
 *   random walk's expected time to cover that distance) clamped to `[minHorizonBars, maxHorizonBars]`.
 * - Sessions: with `sessionBarsLeft` = k > 0 the entry window is cut to the `k - 1` candles before the
 *   session's last one (`session_close` when k is 1).
 *
 * No trade (direction null, all prices null, `reason` set) for an explicit null direction, the ATR
 * warm-up, a flat trend (when the direction is inferred), prices that would not be positive, a risk
 * so small that the round-trip cost exceeds `maxCostR` of it, a target blocked, a poor reward, or a
 * session about to close (checked in that order). The plan reads
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
  const { view, end } = prefixCandles(
    candles,
    levels.as_of_index,
    p.structure ? Math.max(10 * Math.max(p.fast, p.slow), p.structureBars + 1) : 10 * Math.max(p.fast, p.slow),
  );
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
    entry_type: null,
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
  if (!p.structure) return legacyPlan(base, levels, p, direction, atr, mark);

  const s = direction === 'long' ? 1 : -1;
  const m = s * mark;
  const all: Band[] = levels.zones.map((z) => toSide(z, s, levels.higher_timeframe ?? null));
  // Own-side zones (a support for a long, by its middle at or below the close), nearest first.
  const own = all.filter((b) => b.mid <= m).sort((a, b) => b.mid - a.mid);
  const nearest: Band | undefined = own[0];
  // The structure: swing lows (highs for a short) in side coordinates, newest first.
  const swings = structuralSwings(view, end, s, p.structureBars);

  // First candidate: at the close, or in the nearest support when the price is at it.
  let first: Geometry;
  if (nearest !== undefined && Math.min(nearest.high, m) >= m - p.maxPullback * atr) {
    const high = Math.min(nearest.high, m);
    const low = Math.max(nearest.low, high - p.maxEntryWidth * atr);
    first = geometryAt(swings, all, m, atr, p, s, high, low, nearest.low, high < m ? 'limit' : 'market');
  } else {
    const low = m - p.entryWidth * atr;
    let invalidation = low - p.fallbackInvalidation * atr;
    if (nearest !== undefined && nearest.low < low && m - (nearest.low - p.stopBuffer * atr) <= p.maxStop * atr) {
      invalidation = nearest.low;
    }
    first = geometryAt(swings, all, m, atr, p, s, m, low, invalidation, 'market');
  }
  // The close too far above the supports for a structural stop to leave a tradable reward: a
  // limit order at the top of a support lower down, the nearest within `maxLimitAtr` that pays.
  let chosen = first;
  if (first.reason !== null) {
    for (const z of own) {
      if (z.high >= first.entry || m - z.high > p.maxLimit * atr) continue;
      const low = Math.max(z.low, z.high - p.maxEntryWidth * atr);
      const g = geometryAt(swings, all, m, atr, p, s, z.high, low, z.low, 'limit');
      if (g.reason === null) {
        chosen = g;
        break;
      }
    }
  }
  if (chosen.reason !== null) return { ...base, bias: direction, reason: chosen.reason };
  const g = chosen;

  let entryWindow = p.entryWindow;
  // A limit order far from the close is given the time a random walk needs to get there.
  const away = (m - g.entry) / atr;
  if (g.type === 'limit') entryWindow = Math.max(entryWindow, Math.min(p.maxHorizon, Math.ceil(away * away - 1e-9)));
  if (p.sessionBarsLeft !== undefined && p.sessionBarsLeft > 0) {
    if (p.sessionBarsLeft === 1) return { ...base, bias: direction, reason: 'session_close' };
    entryWindow = Math.min(entryWindow, p.sessionBarsLeft - 1);
  }
  const price = (x: number): number => s * x;
  const entryPrice = price(g.entry);
  const cost = (p.costPct / 100) * entryPrice;
  // (the 1e-9 keeps an exact square such as 9 from rounding up to 10 on one side of a mirror)
  const bars = Math.ceil(2 * ((g.targets[0] - g.entry) / atr) ** 2 - 1e-9);
  const horizon = p.horizon ?? Math.min(p.maxHorizon, Math.max(p.minHorizon, bars));
  const sizes = g.targets.length === 2 ? [70, 30] : [100];
  return {
    ...base,
    direction,
    bias: direction,
    entry_type: g.type,
    entry_zone: s > 0 ? { low: g.bandLow, high: g.bandHigh } : { low: -g.bandHigh, high: -g.bandLow },
    entry_price: entryPrice,
    invalidation: price(g.invalidation),
    stop_loss: price(g.stop),
    take_profits: g.targets.map((t, k) => ({
      price: price(t),
      size_pct: sizes[k],
      risk_reward: (t - g.entry) / g.risk,
      risk_reward_net: (t - g.entry - cost) / (g.risk + cost),
    })),
    risk_pct: (g.risk / entryPrice) * 100,
    cost_pct: p.costPct,
    horizon_bars: horizon,
    entry_window_bars: entryWindow,
  };
}

/** One candidate entry in long-side coordinates, with the reason it cannot be published (or null). */
interface Geometry {
  type: EntryType;
  bandLow: number;
  bandHigh: number;
  entry: number;
  invalidation: number;
  stop: number;
  risk: number;
  targets: number[];
  reason: PlanReason | null;
}

/**
 * The stop, targets and checks of an entry band `[bandLow, bandHigh]` (long-side coordinates; the
 * entry is the band's top). `invalidation` is the level used when no structural swing is found.
 */
function geometryAt(
  swings: number[],
  all: Band[],
  m: number,
  atr: number,
  p: Params,
  s: number,
  bandHigh: number,
  bandLow: number,
  fallback: number,
  type: EntryType,
): Geometry {
  const entry = bandHigh;
  let invalidation = fallback;
  // The structure: the latest swing low below the entry, with the zone that holds it.
  const swing = swings.find((w) => w < entry);
  if (swing !== undefined) {
    invalidation = swing;
    for (const b of all) if (b.low <= swing && swing <= b.high) invalidation = Math.min(invalidation, b.low);
  }
  let stop = Math.min(invalidation - p.stopBuffer * atr, entry - p.minStop * atr);
  // A stop inside a level moves below it, highest level first (zones never overlap, so this ends).
  for (const b of [...all].sort((x, y) => y.high - x.high)) {
    if (b.low <= stop && stop <= b.high) {
      invalidation = Math.min(invalidation, b.low);
      stop = b.low - p.stopBuffer * atr;
    }
  }
  const risk = entry - stop;
  const g: Geometry = { type, bandLow, bandHigh, entry, invalidation, stop, risk, targets: [], reason: null };

  // The levels in the way: every zone entirely above the entry (an obstacle by strength), nearest
  // first; a resistance the entry is inside (its middle above the close) blocks the trade.
  const obstacles = all.filter((b) => b.low > entry && isObstacle(b, p)).sort((a, b) => a.low - b.low);
  const inside = all.some((b) => b.mid > m && b.low <= entry && entry < b.high && isObstacle(b, p));
  const capped = entry + p.maxTarget * atr;
  const next = obstacles[0];
  if (next === undefined) g.targets.push(entry + p.fallbackRR * risk);
  else {
    g.targets.push(Math.min(next.low, capped));
    // the next level: the first obstacle beyond target 1 (one with the same edge is the same level)
    const second = obstacles.find((b) => b.low > g.targets[0]);
    if (
      next.low <= capped &&
      second !== undefined &&
      second.low <= capped &&
      second.low >= g.targets[0] + p.minGap * atr
    ) {
      g.targets.push(second.low);
    }
  }
  // Every price of a real market is positive.
  const prices = [bandLow, bandHigh, invalidation, stop, ...g.targets].map((x) => s * x);
  if (!(risk > 0) || prices.some((x) => !(x > 0) || !Number.isFinite(x))) g.reason = 'degenerate_geometry';
  else if (p.costPct > (p.maxCostR * risk * 100) / (s * entry)) g.reason = 'risk_below_cost';
  else if (inside || g.targets[0] - entry < p.minRR * risk) g.reason = 'target_blocked';
  else {
    const cost = (p.costPct / 100) * s * entry;
    if ((g.targets[0] - entry - cost) / (risk + cost) < p.minNetRR) g.reason = 'poor_reward';
  }
  return g;
}

/**
 * The swings the stop may sit beyond, in side coordinates and newest first (`s` +1: swing lows;
 * -1: swing highs, negated): Williams fractals of {@link STRUCTURE_SPAN} candles each side, made
 * within the last `bars` candles and confirmed by `end`.
 */
function structuralSwings(view: Candles, end: number, s: number, bars: number): number[] {
  if (bars === 0) return [];
  const found: Swing[] = [];
  fractalsInto(view, Math.max(0, end - bars), end, STRUCTURE_SPAN, STRUCTURE_SPAN, found);
  const want = s > 0 ? 'low' : 'high';
  const out: number[] = [];
  for (let k = found.length - 1; k >= 0; k--) if (found[k].kind === want) out.push(s * found[k].price);
  return out;
}

/**
 * The geometry before issue 38 (the default while `structure` is false): the entry band at the
 * nearest support within `maxPullbackAtr` or at the close, the stop beyond that support's low (or a
 * fallback distance), targets at the near edges of the opposing zones up to the first one at least
 * `obstacleStrength` (0.6) strong, the horizon from the distance to the last target.
 */
function legacyPlan(
  base: TradePlan,
  levels: SupportResistance,
  p: Params,
  direction: Direction,
  atr: number,
  mark: number,
): TradePlan {
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
  const obstacle = opposing.find((z) => z.strength >= (p.obstacle ?? LEGACY_OBSTACLE_STRENGTH));
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
    entry_type: entry < m ? 'limit' : 'market',
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
