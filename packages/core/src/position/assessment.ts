import { AssessmentError } from '../assessment-error.js';
import { InputError } from '../errors.js';
import { atr } from '../indicators/atr.js';
import { checkInt, checkNumber } from '../indicators/internal/validate.js';
import { positiveOrNull, prefixCandles } from '../levels/internal.js';
import { type SupportResistanceOptions, supportResistance, type Zone } from '../levels/zones.js';
import { buildPlan, type Direction, type PlanOptions, type TakeProfit, type TradePlan } from '../plan/plan.js';
import { checkArray, fieldsOf } from '../portfolio/internal.js';
import type { PlanOutcome } from '../simulation/simulate.js';
import type { Candles } from '../types.js';

/**
 * Whether the idea behind a position still holds: `invalidated` once a close since entry (or the
 * mark) is beyond the reference plan's invalidation, `intact` otherwise, `unknown` without a
 * direction or a published or entry-structure plan to judge by.
 */
export type ThesisStatus = 'intact' | 'invalidated' | 'unknown';

/** Warnings of a {@link PositionAssessment}, in this order. */
export type PositionWarning =
  | 'no_stop_recorded'
  | 'protective_levels_not_synced'
  | 'stop_unusable'
  | 'stop_wrong_side'
  | 'stop_within_noise'
  | 'liquidation_within_noise';

/** Every {@link PositionWarning}, in the order an assessment lists them (the contract's order). */
export const POSITION_WARNINGS: readonly PositionWarning[] = [
  'no_stop_recorded',
  'protective_levels_not_synced',
  'stop_unusable',
  'stop_wrong_side',
  'stop_within_noise',
  'liquidation_within_noise',
];

/**
 * The fields of a position the assessment reads. A {@link PositionExtended} (from `normalizePosition`)
 * fits as is; times may be ISO 8601 strings or ms since the epoch.
 */
export interface AssessedPosition {
  /** Only its presence matters: an unpriced position without an asset cannot be assessed. */
  asset: { id: string } | null;
  side: Direction | null;
  entry_price: number | null;
  /** The venue's mark; null when unpriced (the last close is used then). */
  current_price: number | null;
  opened_at: string | number | null;
  /** From protective-order sync only. */
  stop_loss: number | null;
  take_profit: number | null;
  /** Null when no protective-order read ever succeeded. */
  protective_levels_synced_at: string | number | null;
  liquidation_price: number | null;
}

/** A plan the service published ("emitted"), with its simulated outcome so far. */
export interface PublishedPlanRecord {
  /** When it was published (ms UTC). */
  published_time: number;
  /** Timeframe it was published on; null or absent matches any. */
  timeframe?: string | null;
  plan: TradePlan;
  /** Outcome so far (`simulatePlan`); null for a plan without a trade. */
  outcome: PlanOutcome | null;
  /** Realized R once closed (`simulatePlan`); null while open. */
  realized_r: number | null;
  /**
   * When the plan stopped being in force (ms UTC): the exit or expiry time (`simulatePlan`'s
   * `exit_time`). Null or absent while it is pending or entered.
   */
  closed_time?: number | null;
}

/** Input of {@link assessPosition}. */
export interface AssessmentInput {
  position: AssessedPosition;
  /** Candles of the position's asset on `timeframe`, oldest first; null (or empty) when there are none. */
  candles: Candles | null;
  /** The candles' timeframe (`d1`, `h1`, ...); published plans of another timeframe do not match. */
  timeframe?: string | null;
  /** The plans published for the asset (any order). */
  published_plans?: readonly PublishedPlanRecord[];
}

/** Options of {@link assessPosition}. */
export interface AssessmentOptions {
  /** ATR period (Wilder, TA-Lib `ATR`). Default 14, as in `analyze`. */
  atrPeriod?: number;
  /** A stop closer to the mark than this many ATRs is within noise. Default 0.5 (the plan's `minStopAtr`). */
  stopNoiseAtr?: number;
  /** A liquidation price closer to the mark than this many ATRs is within noise. Default 1. */
  liquidationNoiseAtr?: number;
  /** Options of the support/resistance search (the ATR comes from `atrPeriod`). */
  levels?: Omit<SupportResistanceOptions, 'asOf' | 'atr' | 'atrPeriod'>;
  /** Options of the reconstructed plans (the direction is the position's). */
  plan?: Omit<PlanOptions, 'direction'>;
}

/**
 * Where the plan the position is measured against comes from: the published plan in force at entry,
 * the plan the engine draws from the structure just before the entry, or (entry time unknown or
 * outside the candles) the plan it draws now.
 */
export type ReferencePlanSource = 'published' | 'entry_structure' | 'current';

/** The plan the position is measured against (a plan with a trade, in the position's direction). */
export interface ReferencePlan {
  source: ReferencePlanSource;
  /** The record's publication time, or the open time of the last candle the reconstructed plan read. */
  published_time: number;
  entry_zone: { low: number; high: number };
  entry_price: number;
  invalidation: number;
  stop_loss: number;
  take_profits: TakeProfit[];
  horizon_bars: number | null;
}

/** Where the recorded stop sits. */
export interface StopPlacement {
  stop_loss: number;
  /** `side * (mark - stop) / mark * 100`: positive while the stop is on the loss side of the mark. */
  signed_distance_pct: number;
  /** Noise distance: `side * (mark - stop) / ATR`; null during the ATR warm-up. */
  noise_distance_atr: number | null;
  /** The stop lies inside the reference plan's entry zone; null without a reference plan. */
  inside_entry_zone: boolean | null;
  /** The stop lies beyond the invalidation level (below it for a long); null without one. */
  beyond_invalidation: boolean | null;
  /** The stop lies inside a zone on the trade's opposing side of the mark (resistance for a long); null without candles. */
  inside_opposing_zone: boolean | null;
  /** The stop is at the entry or on its profit side. */
  breakeven_or_better: boolean;
}

/** How far the liquidation price is. */
export interface LiquidationRisk {
  liquidation_price: number;
  /** `|mark - liquidation| / mark * 100`; never null. */
  abs_distance_pct: number;
  /** `|mark - liquidation| / ATR`; null during the ATR warm-up. */
  abs_distance_atr: number | null;
}

/** How long the position has been held, in candles of the timeframe. */
export interface PositionTiming {
  /** Entry time (ms UTC), or null when unknown. */
  entry_time: number | null;
  /** Candles from the entry candle to the last one, both included; null when the entry time is unknown or before the candles. */
  bars_held: number | null;
  /** A lower bound that is always known: `bars_held`, or the candle count when the entry is before the candles, or 1 (0 without candles) when the entry time is unknown. */
  bars_held_at_least: number;
  /** The reference plan's horizon; null without one, or when it is the current plan (its horizon starts now). */
  horizon_bars: number | null;
  /** `bars_held > horizon_bars`, true as soon as `bars_held_at_least` exceeds it; null when unknown. */
  horizon_exceeded: boolean | null;
}

/** Distance from the mark to the thesis's invalidation level. */
export interface InvalidationDistance {
  price: number;
  source: ReferencePlanSource;
  /** `side * (mark - invalidation) / mark * 100`: positive while the mark is on the thesis side. */
  signed_distance_pct: number;
  /** As `signed_distance_pct` in ATRs; null during the ATR warm-up. */
  signed_distance_atr: number | null;
  /** Open time of the first candle since the entry that closed beyond it; null when none did. */
  breached_at: number | null;
}

/** Maximum favourable and adverse excursion since the entry (both as positive magnitudes). */
export interface Excursion {
  /** `side * (best price - entry) / entry * 100`, at least 0. */
  mfe_pct: number;
  /** `side * (entry - worst price) / entry * 100`, at least 0. */
  mae_pct: number;
  mfe_atr: number | null;
  mae_atr: number | null;
  /** Candles since the favourable extreme was first reached (0: on the last candle). */
  bars_since_peak: number;
  /** Current favourable move over the peak one: 1 at the peak, below 0 when now in loss; null when the peak is 0. */
  current_over_peak: number | null;
}

/** The reference plan's stop and first target applied to the actual entry and mark: hypothetical. */
export interface PlanGeometry {
  hypothetical: true;
  plan_stop: number;
  plan_target: number;
  /** `(mark - entry) / (entry - plan_stop)`; null when the plan stop is not on the loss side of the entry. */
  unrealized_r_at_plan_stop: number | null;
  /** `side * (plan_target - mark) / (side * (mark - plan_stop))`; null when the mark is past the target or the stop. */
  remaining_rr_on_plan: number | null;
}

/** A zone with its signed distance from the mark. */
export interface LevelDistance {
  low: number;
  high: number;
  mid: number;
  strength: number;
  /** `(mid - mark) / mark * 100`. */
  distance_pct: number;
  /** `(mid - mark) / ATR`; null during the ATR warm-up. */
  distance_atr: number | null;
}

/** Nearest support below (middle at or below) and resistance above the mark. */
export interface NearestLevels {
  support: LevelDistance | null;
  resistance: LevelDistance | null;
}

/** The position against the published plan in force at its entry. */
export interface PublishedAtEntry {
  published_time: number;
  timeframe: string | null;
  /** `(entry - published entry_price) / published entry_price * 100`. */
  entry_vs_published_pct: number;
  entry_inside_published_zone: boolean;
  /** `(mark - entry) / (entry - published stop)`; null when that stop is not on the loss side of the entry. */
  unrealized_r_at_published_stop: number | null;
  outcome: PlanOutcome | null;
  plan_realized_r: number | null;
}

/**
 * The assessment of an open position (`GET /v2/positions/{position_id}/analysis`, MCP
 * `position_analysis`). Descriptive only: no action, no suggested stop, no
 * confidence. Every number is finite or null.
 */
export interface PositionAssessment {
  direction: Direction | null;
  timeframe: string | null;
  /** Open time of the last candle (ms UTC); null without candles. */
  as_of: number | null;
  mark: number;
  /** `venue`: the position's `current_price`; `candle`: the last close (the position is unpriced). */
  mark_source: 'venue' | 'candle';
  entry_price: number;
  /** The recorded stop when it is a positive price, else null. */
  stop_loss: number | null;
  take_profit: number | null;
  /** ATR at the last candle; null during the warm-up or without candles. */
  atr: number | null;
  thesis_status: ThesisStatus;
  /** `(mark - entry) / (entry - stop)`; null without a stop, or when the stop is at breakeven or better. */
  unrealized_r: number | null;
  /** `side * (take_profit - mark) / (side * (mark - stop))`; null without both, once the mark is past the target, or at/past the stop. */
  remaining_rr: number | null;
  /** `(entry - reference entry_price) / reference entry_price * 100`; null without a reference plan. */
  entry_vs_plan_pct: number | null;
  stop_placement: StopPlacement | null;
  liquidation_risk: LiquidationRisk | null;
  timing: PositionTiming;
  invalidation: InvalidationDistance | null;
  excursion: Excursion | null;
  plan_geometry: PlanGeometry | null;
  nearest_levels: NearestLevels | null;
  published_at_entry: PublishedAtEntry | null;
  reference_plan: ReferencePlan | null;
  warnings: PositionWarning[];
}

const SIDES: readonly (Direction | null)[] = ['long', 'short', null];

/** Finite or null. */
function fin(x: number): number | null {
  return Number.isFinite(x) ? x || 0 : null;
}

/** A price input: positive finite, else null. */
function price(x: unknown): number | null {
  return typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : null;
}

function timeOf(x: unknown, field: string): number | null {
  if (x === null || x === undefined) return null;
  const t = typeof x === 'string' ? Date.parse(x) : x;
  if (typeof t !== 'number' || !Number.isFinite(t)) {
    throw new InputError('invalid_option', `position.${field} must be a date-time or ms time, got ${String(x)}`, field);
  }
  return t;
}

/** Index of the last candle with `time <= t`, or -1 when `t` is before the first candle. */
function candleAt(time: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = time.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

function referenceOf(plan: TradePlan, source: ReferencePlanSource, publishedTime: number): ReferencePlan | null {
  const { entry_zone, entry_price, invalidation, stop_loss, take_profits } = plan;
  if (
    entry_zone === null ||
    entry_price === null ||
    invalidation === null ||
    stop_loss === null ||
    !Array.isArray(take_profits) ||
    take_profits.length === 0
  ) {
    return null;
  }
  return {
    source,
    published_time: publishedTime,
    entry_zone: { low: entry_zone.low, high: entry_zone.high },
    entry_price,
    invalidation,
    stop_loss,
    take_profits: take_profits.map((t) => ({ ...t })),
    horizon_bars: plan.horizon_bars,
  };
}

/** The published plan in force at the entry (see {@link assessPosition}). */
function publishedInForce(
  records: readonly PublishedPlanRecord[],
  side: Direction,
  entryTime: number,
  timeframe: string | null,
): PublishedPlanRecord | null {
  let best: PublishedPlanRecord | null = null;
  let bestTime = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    const f = fieldsOf(r, 'published_plans', i);
    const published = f.time('published_time');
    const closed = f.timeOrNull('closed_time');
    const tf = f.stringOrNull('timeframe');
    if (r.plan == null || typeof r.plan !== 'object') f.fail('plan', 'must be a trade plan');
    if (r.plan.direction !== side || published > entryTime) continue;
    if (closed !== null && closed <= entryTime) continue;
    if (timeframe !== null && tf !== null && tf !== timeframe) continue;
    if (published >= bestTime) {
      best = r;
      bestTime = published;
    }
  }
  return best;
}

function levelDistance(z: Zone | undefined, mark: number, a: number | null): LevelDistance | null {
  if (z === undefined) return null;
  const d = z.mid - mark;
  return {
    low: z.low,
    high: z.high,
    mid: z.mid,
    strength: z.strength,
    distance_pct: (d / mark) * 100 || 0,
    distance_atr: a === null ? null : fin(d / a),
  };
}

/** `(mark - entry) / (entry - stop)` when the stop is on the loss side of the entry, else null. */
function rMultiple(s: number, entry: number, mark: number, stop: number): number | null {
  const risk = s * (entry - stop);
  return risk > 0 ? fin((s * (mark - entry)) / risk) : null;
}

/** Reward left to `target` over the risk left to `stop`, from the mark; null past either. */
function remaining(s: number, mark: number, stop: number, target: number): number | null {
  const reward = s * (target - mark);
  const risk = s * (mark - stop);
  return reward >= 0 && risk > 0 ? fin(reward / risk) : null;
}

/**
 * Assesses an open position against the analysis. Descriptive only.
 *
 * Mark: the position's `current_price`, else the last close (`mark_source: 'candle'`). Entry time:
 * `opened_at`; the entry candle is the last candle opening at or before it.
 *
 * Reference plan (`reference_plan`), the first that exists, in the position's direction:
 * 1. `published`: the published plan in force at the entry: among the records of the position's
 *    direction (and timeframe, when both name one), published at or before the entry and not closed
 *    (`closed_time`) at or before it, the latest published (ties: the later record).
 * 2. `entry_structure`: `buildPlan` on `supportResistance` as of the candle before the entry candle (the
 *    last candle closed before the entry, so nothing after the entry is read).
 * 3. `current`: `buildPlan` as of the last candle (entry time unknown or before the candles).
 * Plans 2 and 3 are built without the reward minimums (`minRiskReward: 0`, `minNetRiskReward`
 * -1e6, unless `options.plan` sets them): they locate the structure of a position already held.
 *
 * Fields (s = +1 long, -1 short; M mark, E entry, S recorded stop, T recorded take-profit, A ATR of the
 * last candle, I the reference plan's invalidation):
 * - `thesis_status`: `invalidated` once a close since the entry candle (or the mark) is beyond I,
 *   `intact` otherwise; `unknown` without a direction or a `published` / `entry_structure` reference
 *   (a current plan's invalidation is below the mark by construction, so it says nothing).
 * - `unrealized_r` = `(M - E) / (E - S)`: null without a stop or when `s * (E - S) <= 0` (breakeven or better).
 * - `remaining_rr` = `s (T - M) / s (M - S)`: null without both, once the mark is past T, or at/past S.
 * - `entry_vs_plan_pct` = `(E - P) / P * 100` with P the reference plan's `entry_price`.
 * - `stop_placement`, `liquidation_risk`, `invalidation`, `nearest_levels`: see their types; null when
 *   there is no stop / liquidation price / invalidation / candles.
 * - `timing`: bars held (entry candle to last, inclusive, as in `simulatePlan`); `horizon_exceeded`
 *   against the reference plan's horizon (not a current plan's).
 * - `excursion`: over the candles after the entry candle (highs and lows), the entry candle's close and
 *   the mark: the entry candle's own high and low are skipped because they may predate the fill. Null
 *   without a direction or entry time, or when the candles do not reach the entry.
 * - `plan_geometry`: the reference plan's stop and first target applied to E and M (hypothetical).
 * - `published_at_entry`: the `published` match only (null when none matches).
 * - `warnings`: `no_stop_recorded` (no stop; together with `protective_levels_not_synced` when no
 *   protective-order read ever succeeded, since then a null stop is no evidence), `stop_unusable` (a stop
 *   is recorded but is not a positive price, the direction is unknown, or the liquidation price comes
 *   first: `s (S - L) <= 0`), `stop_wrong_side` (`s (M - S) <= 0`: at or beyond the mark),
 *   `stop_within_noise` (`0 < s (M - S) < stopNoiseAtr * A`), `liquidation_within_noise`
 *   (`s (M - L) < liquidationNoiseAtr * A`, `|M - L|` without a direction).
 * @throws AssessmentError (`reason`) for an unpriced position with no asset or no candles, or a mark or
 * entry that is not a positive price: the server answers 422 with the reason.
 * @throws InputError on malformed input (candles, options, published records, side, times).
 */
export function assessPosition(input: AssessmentInput, options?: AssessmentOptions): PositionAssessment {
  if (input == null || typeof input !== 'object' || input.position == null || typeof input.position !== 'object') {
    throw new InputError('invalid_option', 'input.position must be a position object', 'position');
  }
  const atrPeriod = checkInt('atrPeriod', options?.atrPeriod ?? 14, 1);
  const stopNoise = checkNumber('stopNoiseAtr', options?.stopNoiseAtr ?? 0.5, 0, 1e6);
  const liqNoise = checkNumber('liquidationNoiseAtr', options?.liquidationNoiseAtr ?? 1, 0, 1e6);
  const pos = input.position;
  if (!SIDES.includes(pos.side ?? null)) {
    throw new InputError('invalid_option', `position.side must be 'long', 'short' or null, got ${String(pos.side)}`);
  }
  const side = pos.side ?? null;
  const timeframe = input.timeframe ?? null;
  const records = input.published_plans == null ? [] : checkArray(input.published_plans, 'published_plans');
  const rawCandles = input.candles ?? null;
  const hasCandles = rawCandles !== null && !(rawCandles.close != null && rawCandles.close.length === 0);
  const candles = hasCandles && rawCandles !== null ? prefixCandles(rawCandles, undefined).view : null;

  // 422 rules.
  const venueMark = pos.current_price ?? null;
  if (venueMark === null && (pos.asset ?? null) === null) {
    throw new AssessmentError('unpriced_without_asset', 'the position is unpriced and maps to no tracked asset');
  }
  if (venueMark === null && candles === null) {
    throw new AssessmentError('unpriced_without_candles', 'the position is unpriced and no candles were given');
  }
  const entry = price(pos.entry_price);
  if (entry === null) {
    throw new AssessmentError('entry_not_positive', `entry price ${String(pos.entry_price)} is not a positive price`);
  }
  const n = candles === null ? 0 : candles.close.length;
  const markInput = venueMark ?? (candles === null ? null : candles.close[n - 1]);
  const mark = price(markInput);
  if (mark === null)
    throw new AssessmentError('mark_not_positive', `mark ${String(markInput)} is not a positive price`);

  const entryTime = timeOf(pos.opened_at, 'opened_at');
  const syncedAt = timeOf(pos.protective_levels_synced_at, 'protective_levels_synced_at');
  const stopRecorded = pos.stop_loss !== null && pos.stop_loss !== undefined;
  const stop = price(pos.stop_loss);
  const target = price(pos.take_profit);
  const liquidation = price(pos.liquidation_price);
  const s = side === 'long' ? 1 : -1;

  // Candles: ATR, levels now, entry candle.
  let a: number | null = null;
  let atrCol: Float64Array | null = null;
  let zones: Zone[] | null = null;
  let entryIdx = -1; // -1: unknown or before the candles
  if (candles !== null) {
    atrCol = atr(candles, { period: atrPeriod });
    a = positiveOrNull(atrCol[n - 1]);
    zones = supportResistance(candles, { ...options?.levels, atr: atrCol }).zones;
    if (entryTime !== null) entryIdx = candleAt(candles.time, entryTime);
  }
  const entryInWindow = entryIdx >= 0;

  // Reference plan.
  let record: PublishedPlanRecord | null = null;
  let reference: ReferencePlan | null = null;
  if (side !== null) {
    if (entryTime !== null) {
      record = publishedInForce(records, side, entryTime, timeframe);
      if (record !== null) reference = referenceOf(record.plan, 'published', record.published_time);
      if (reference === null) record = null;
    }
    const planAsOf = (i: number, source: ReferencePlanSource): ReferencePlan | null => {
      if (candles === null || atrCol === null) return null;
      const lv = supportResistance(candles, { ...options?.levels, asOf: i, atr: atrCol });
      // A held position is read against the plan's structure (entry, stop, invalidation); the
      // reward minimums decide whether a new call is published, not where an open one is wrong.
      const plan = buildPlan(candles, lv, {
        minRiskReward: 0,
        minNetRiskReward: -1e6,
        ...options?.plan,
        direction: side,
      });
      return referenceOf(plan, source, plan.published_time);
    };
    if (reference === null && entryIdx >= 1) reference = planAsOf(entryIdx - 1, 'entry_structure');
    if (reference === null && candles !== null) reference = planAsOf(n - 1, 'current');
  }
  const thesisRef = reference !== null && reference.source !== 'current' ? reference : null;

  // Thesis and invalidation.
  let thesis: ThesisStatus = 'unknown';
  let invalidation: InvalidationDistance | null = null;
  if (side !== null && reference !== null) {
    const level = reference.invalidation;
    let breachedAt: number | null = null;
    if (candles !== null && thesisRef !== null) {
      for (let i = Math.max(0, entryIdx); i < n; i++) {
        if (s * (candles.close[i] - level) < 0) {
          breachedAt = candles.time[i];
          break;
        }
      }
    }
    const d = s * (mark - level);
    if (thesisRef !== null) thesis = breachedAt !== null || d < 0 ? 'invalidated' : 'intact';
    invalidation = {
      price: level,
      source: reference.source,
      signed_distance_pct: (d / mark) * 100 || 0,
      signed_distance_atr: a === null ? null : fin(d / a),
      breached_at: breachedAt,
    };
  }

  // Stop.
  let stopPlacement: StopPlacement | null = null;
  if (side !== null && stop !== null) {
    const d = s * (mark - stop);
    let insideOpposing: boolean | null = null;
    if (zones !== null) {
      insideOpposing = zones.some((z) => s * (z.mid - mark) > 0 && stop >= z.low && stop <= z.high);
    }
    stopPlacement = {
      stop_loss: stop,
      signed_distance_pct: (d / mark) * 100 || 0,
      noise_distance_atr: a === null ? null : fin(d / a),
      inside_entry_zone:
        reference === null ? null : stop >= reference.entry_zone.low && stop <= reference.entry_zone.high,
      beyond_invalidation: reference === null ? null : s * (reference.invalidation - stop) > 0,
      inside_opposing_zone: insideOpposing,
      breakeven_or_better: s * (stop - entry) >= 0,
    };
  }

  // Liquidation.
  let liquidationRisk: LiquidationRisk | null = null;
  if (liquidation !== null) {
    const d = Math.abs(mark - liquidation);
    liquidationRisk = {
      liquidation_price: liquidation,
      abs_distance_pct: (d / mark) * 100,
      abs_distance_atr: a === null ? null : fin(d / a),
    };
  }

  // Timing.
  const barsHeld = entryInWindow ? n - entryIdx : null;
  const atLeast = barsHeld ?? (entryTime !== null ? n : Math.min(n, 1));
  const horizon = thesisRef?.horizon_bars ?? null;
  let horizonExceeded: boolean | null = null;
  if (horizon !== null) {
    if (atLeast > horizon) horizonExceeded = true;
    else if (barsHeld !== null) horizonExceeded = false;
  }

  // Excursion.
  let excursion: Excursion | null = null;
  if (side !== null && candles !== null && entryInWindow) {
    let best = 0;
    let worst = 0;
    let peak = entryIdx;
    const fav = s > 0 ? candles.high : candles.low;
    const adv = s > 0 ? candles.low : candles.high;
    const visit = (good: number, bad: number, i: number): void => {
      const up = s * (good - entry);
      if (up > best) {
        best = up;
        peak = i;
      }
      const down = s * (entry - bad);
      if (down > worst) worst = down;
    };
    visit(candles.close[entryIdx], candles.close[entryIdx], entryIdx);
    for (let i = entryIdx + 1; i < n; i++) visit(fav[i], adv[i], i);
    visit(mark, mark, n - 1);
    const now = s * (mark - entry);
    excursion = {
      mfe_pct: (best / entry) * 100,
      mae_pct: (worst / entry) * 100,
      mfe_atr: a === null ? null : fin(best / a),
      mae_atr: a === null ? null : fin(worst / a),
      bars_since_peak: n - 1 - peak,
      current_over_peak: best > 0 ? fin(now / best) : null,
    };
  }

  // Plan geometry.
  let geometry: PlanGeometry | null = null;
  if (side !== null && reference !== null) {
    const planTarget = reference.take_profits[0].price;
    geometry = {
      hypothetical: true,
      plan_stop: reference.stop_loss,
      plan_target: planTarget,
      unrealized_r_at_plan_stop: rMultiple(s, entry, mark, reference.stop_loss),
      remaining_rr_on_plan: remaining(s, mark, reference.stop_loss, planTarget),
    };
  }

  // Nearest levels, relative to the mark.
  let nearest: NearestLevels | null = null;
  if (zones !== null) {
    let support: Zone | undefined;
    let resistance: Zone | undefined;
    for (const z of zones) {
      if (z.mid <= mark) {
        if (support === undefined || z.mid > support.mid) support = z;
      } else if (resistance === undefined || z.mid < resistance.mid) resistance = z;
    }
    nearest = { support: levelDistance(support, mark, a), resistance: levelDistance(resistance, mark, a) };
  }

  // Published plan at entry.
  let published: PublishedAtEntry | null = null;
  if (side !== null && record !== null && reference !== null) {
    const zone = reference.entry_zone;
    published = {
      published_time: record.published_time,
      timeframe: record.timeframe ?? null,
      entry_vs_published_pct: fin(((entry - reference.entry_price) / reference.entry_price) * 100) ?? 0,
      entry_inside_published_zone: entry >= zone.low && entry <= zone.high,
      unrealized_r_at_published_stop: rMultiple(s, entry, mark, reference.stop_loss),
      outcome: record.outcome ?? null,
      plan_realized_r: typeof record.realized_r === 'number' ? fin(record.realized_r) : null,
    };
  }

  // Warnings.
  const warnings: PositionWarning[] = [];
  if (!stopRecorded) warnings.push('no_stop_recorded');
  if (syncedAt === null) warnings.push('protective_levels_not_synced');
  if (stopRecorded && (stop === null || side === null || (liquidation !== null && s * (stop - liquidation) <= 0))) {
    warnings.push('stop_unusable');
  }
  if (side !== null && stop !== null) {
    const d = s * (mark - stop);
    if (d <= 0) warnings.push('stop_wrong_side');
    else if (a !== null && d < stopNoise * a) warnings.push('stop_within_noise');
  }
  if (liquidation !== null && a !== null) {
    const d = side === null ? Math.abs(mark - liquidation) : s * (mark - liquidation);
    if (d < liqNoise * a) warnings.push('liquidation_within_noise');
  }

  return {
    direction: side,
    timeframe,
    as_of: candles === null ? null : candles.time[n - 1],
    mark,
    mark_source: venueMark === null ? 'candle' : 'venue',
    entry_price: entry,
    stop_loss: stop,
    take_profit: target,
    atr: a,
    thesis_status: thesis,
    unrealized_r: side === null || stop === null ? null : rMultiple(s, entry, mark, stop),
    remaining_rr: side === null || stop === null || target === null ? null : remaining(s, mark, stop, target),
    entry_vs_plan_pct: reference === null ? null : fin(((entry - reference.entry_price) / reference.entry_price) * 100),
    stop_placement: stopPlacement,
    liquidation_risk: liquidationRisk,
    timing: {
      entry_time: entryTime,
      bars_held: barsHeld,
      bars_held_at_least: atLeast,
      horizon_bars: horizon,
      horizon_exceeded: horizonExceeded,
    },
    invalidation,
    excursion,
    plan_geometry: geometry,
    nearest_levels: nearest,
    published_at_entry: published,
    reference_plan: reference,
    warnings,
  };
}
