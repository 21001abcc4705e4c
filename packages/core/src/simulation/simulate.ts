import { InputError } from '../errors.js';
import { checkInt, checkNumber } from '../indicators/internal/validate.js';
import type { TradePlan } from '../plan/plan.js';
import type { Candles } from '../types.js';

/**
 * State of a published plan: `pending` (waiting for the entry band), `entered` (position open, maybe
 * partly closed), and the final states `tp_hit`, `stopped_out`, `time_stopped`, `expired`.
 */
export type PlanOutcome = 'pending' | 'entered' | 'tp_hit' | 'stopped_out' | 'time_stopped' | 'expired';

/** One take-profit leg of a simulated position. */
export interface SimulatedLeg {
  /** 1 or 2: the plan's take-profit this leg aims at. */
  target: number;
  /** Share of the position, in %. */
  size_pct: number;
  /** How the leg was closed; null while open. */
  exit: 'target' | 'stop' | 'time' | null;
  exit_index: number | null;
  exit_time: number | null;
  exit_price: number | null;
  /** The leg's result in R, net of the cost; null while open. */
  r: number | null;
  /** The leg's return in % of the entry price, net of the cost; null while open. */
  return_pct: number | null;
}

/** What happened to a plan after its publication. */
export interface PlanSimulation {
  /** Null for a plan without a trade (`direction: null`). */
  outcome: PlanOutcome | null;
  /** `'no_trade'` for a plan without a trade; `'gap_through_stop'` when the price opened beyond the stop before any fill. */
  reason: 'no_trade' | 'gap_through_stop' | null;
  entered_index: number | null;
  entered_time: number | null;
  /** The fill price (see {@link simulatePlan}). */
  entry_price: number | null;
  /** The candle that closed the position, or ended the entry window of an expired plan. */
  exit_index: number | null;
  exit_time: number | null;
  /** Number of take-profits reached (0, 1 or 2). */
  targets_hit: number;
  /** Candles from the entry to the exit, both included; null until the position is closed. */
  bars_held: number | null;
  /** Size-weighted sum of the legs' R, net of the cost; null unless the position is fully closed. */
  realized_r: number | null;
  /** Size-weighted return in % of the entry price, net of the cost; null unless fully closed. */
  return_pct: number | null;
  /** Round-trip cost deducted, in % of the entry price. */
  cost_pct: number;
  /** One leg per take-profit (empty before the entry). */
  legs: SimulatedLeg[];
}

/** Options of {@link simulatePlan}. */
export interface SimulateOptions {
  /** First candle to walk. Default: the first candle opening after `plan.published_time`. */
  fromIndex?: number;
  /** Round-trip cost in % of the entry price. Default 0.2. */
  costPct?: number;
  /** Overrides `plan.entry_window_bars`. */
  entryWindowBars?: number;
  /** Overrides `plan.horizon_bars`. */
  horizonBars?: number;
}

const FIELDS = ['time', 'open', 'high', 'low', 'close'] as const;

/** Index of the first candle with `time > t` (times ascending). */
function firstAfter(time: ArrayLike<number>, t: number): number {
  let lo = 0;
  let hi = time.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid] > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Checks the columns' presence and lengths (values are checked as the walk reads them). */
function checkLengths(candles: Candles): number {
  if (candles == null || typeof candles !== 'object') {
    throw new InputError('empty_input', 'candles must be an object of columns time, open, high, low, close');
  }
  const record = candles as unknown as Record<string, ArrayLike<number> | undefined>;
  let n = -1;
  for (const f of FIELDS) {
    const col = record[f];
    if (col == null || typeof col.length !== 'number')
      throw new InputError('empty_input', `candles.${f} is missing`, f);
    if (n === -1) n = col.length;
    else if (col.length !== n) {
      throw new InputError('length_mismatch', `candles.${f} has ${col.length} values but candles.time has ${n}`, f);
    }
  }
  if (n === 0) throw new InputError('empty_input', 'candles are empty', 'time');
  return n;
}

/** Throws unless candle `i` has finite time, open, high, low and close. */
function checkRow(candles: Candles, i: number): void {
  const x = candles.time[i] + candles.open[i] + candles.high[i] + candles.low[i] + candles.close[i];
  if (x * 0 !== 0) {
    for (const f of FIELDS) {
      if (!Number.isFinite(candles[f][i])) {
        throw new InputError('non_finite', `candles.${f}[${i}] is ${String(candles[f][i])}; it must be finite`, f, i);
      }
    }
  }
}

function invalidPlan(message: string): InputError {
  return new InputError('invalid_option', message, 'plan');
}

/**
 * Walks the candles after a plan's publication and reports its outcome, with realized R and return.
 *
 * States: `pending` until a candle trades into the entry band, within `entry_window_bars` candles of
 * the publication, else `expired`. Once `entered`, each candle is checked for the stop, then the
 * targets, then the time stop; the position ends `tp_hit` (target 1 was reached, whatever happened
 * to the rest), `stopped_out` (stop before any target) or `time_stopped` (`horizon_bars` candles,
 * counting the entry candle, without target or stop: exit at that candle's close). Running out of
 * candles leaves `pending` or `entered`.
 *
 * Conventions (long; a short mirrors them):
 * - Fill: at the top of the band when a candle's low reaches it; at the open when the candle opens
 *   inside or below the band (a gap), unless that open is at or below the stop: then the plan is
 *   `expired` with reason `gap_through_stop`.
 * - A candle that touches both the stop and a target resolves to the stop (the intrabar order is
 *   unknown; the stop is the conservative reading). On the entry candle the stop is checked; the
 *   targets only when the fill was at the open (otherwise its high may predate the fill).
 * - Stops fill at the stop, or at the open when the candle opens beyond it; targets fill at the
 *   target, or at the open when the candle opens beyond it.
 * - Sizing from the plan: 70% closes at target 1 and 30% at target 2 (100% at target 1 when there
 *   is one). After target 1 the stop of the rest stays where it was (no move to breakeven).
 * - R of a leg is `(exit - entry) / (entry - stop)` against the actual fill; return is
 *   `(exit - entry) / entry * 100`. The flat round-trip cost `costPct` (0.20%) is subtracted from
 *   every leg's return, and `costPct / 100 * entry / (entry - stop)` from its R. Totals are the
 *   size-weighted sums of the legs.
 * The result depends only on candles after the publication (from `fromIndex`).
 */
export function simulatePlan(plan: TradePlan, candles: Candles, options?: SimulateOptions): PlanSimulation {
  const cost = checkNumber('costPct', options?.costPct ?? 0.2, 0, 100);
  const n = checkLengths(candles);
  if (plan == null || typeof plan !== 'object') throw invalidPlan('plan must be the result of buildPlan()');
  if (options?.fromIndex === undefined && !Number.isFinite(plan.published_time)) {
    throw invalidPlan('plan.published_time must be a finite time (or pass fromIndex)');
  }
  const from =
    options?.fromIndex === undefined
      ? firstAfter(candles.time, plan.published_time)
      : checkInt('fromIndex', options.fromIndex, 0, n);
  const result: PlanSimulation = {
    outcome: null,
    reason: null,
    entered_index: null,
    entered_time: null,
    entry_price: null,
    exit_index: null,
    exit_time: null,
    targets_hit: 0,
    bars_held: null,
    realized_r: null,
    return_pct: null,
    cost_pct: cost,
    legs: [],
  };
  if (plan.direction === null) return { ...result, reason: 'no_trade' };
  if (plan.direction !== 'long' && plan.direction !== 'short') {
    throw invalidPlan(`plan.direction must be 'long', 'short' or null, got ${String(plan.direction)}`);
  }
  const zone = plan.entry_zone;
  const stopPrice = plan.stop_loss;
  const tps = plan.take_profits;
  if (zone === null || stopPrice === null || !Array.isArray(tps) || tps.length === 0 || tps.length > 2) {
    throw invalidPlan('plan has a direction but no entry zone, stop or take-profits');
  }
  const window = checkInt('entryWindowBars', options?.entryWindowBars ?? plan.entry_window_bars ?? 0, 1);
  const horizon = checkInt('horizonBars', options?.horizonBars ?? plan.horizon_bars ?? 0, 1);

  // Long-side coordinates: a short is walked as a long on negated prices.
  const s = plan.direction === 'long' ? 1 : -1;
  const { time, open, high, low, close } = candles;
  const band = s > 0 ? zone.high : -zone.low;
  const stop = s * stopPrice;
  const targets = tps.map((t) => s * t.price);
  if (!(band > stop) || !(targets[0] > band) || (targets.length === 2 && !(targets[1] >= targets[0]))) {
    throw invalidPlan('plan prices are out of order (stop, entry zone and targets must be on their sides)');
  }
  const upAt = (i: number): number => (s > 0 ? high[i] : -low[i]);
  const downAt = (i: number): number => (s > 0 ? low[i] : -high[i]);

  // Pending.
  const windowEnd = from + window - 1;
  let j = from;
  let entry = Number.NaN;
  let atOpen = false;
  for (; j <= windowEnd && j < n; j++) {
    checkRow(candles, j);
    const o = s * open[j];
    if (o <= band) {
      if (o <= stop) {
        return { ...result, outcome: 'expired', reason: 'gap_through_stop', exit_index: j, exit_time: time[j] };
      }
      entry = o;
      atOpen = true;
      break;
    }
    if (downAt(j) <= band) {
      entry = band;
      break;
    }
  }
  if (Number.isNaN(entry)) {
    if (windowEnd < n) return { ...result, outcome: 'expired', exit_index: windowEnd, exit_time: time[windowEnd] };
    return { ...result, outcome: 'pending' };
  }

  // Entered.
  const entryPrice = s * entry;
  const risk = entry - stop;
  const costR = ((cost / 100) * Math.abs(entryPrice)) / risk;
  const legs: SimulatedLeg[] = tps.map((t, k) => ({
    target: k + 1,
    size_pct: t.size_pct,
    exit: null,
    exit_index: null,
    exit_time: null,
    exit_price: null,
    r: null,
    return_pct: null,
  }));
  const close1 = (leg: SimulatedLeg, how: 'target' | 'stop' | 'time', i: number, x: number): void => {
    leg.exit = how;
    leg.exit_index = i;
    leg.exit_time = time[i];
    leg.exit_price = s * x;
    leg.r = (x - entry) / risk - costR;
    leg.return_pct = ((x - entry) / Math.abs(entryPrice)) * 100 - cost;
  };
  const entered: PlanSimulation = { ...result, entered_index: j, entered_time: time[j], entry_price: entryPrice, legs };
  let open1 = 0; // first open leg
  const horizonEnd = j + horizon - 1;
  let outcome: PlanOutcome = 'entered';
  let exitAt = -1;
  for (let k = j; k <= horizonEnd && k < n; k++) {
    if (k > j) checkRow(candles, k);
    const first = k === j;
    const o = s * open[k];
    const stopHit = !first && o <= stop ? o : downAt(k) <= stop ? stop : Number.NaN;
    if (!Number.isNaN(stopHit)) {
      for (let q = open1; q < legs.length; q++) close1(legs[q], 'stop', k, stopHit);
      outcome = open1 > 0 ? 'tp_hit' : 'stopped_out';
      exitAt = k;
      break;
    }
    if (!first || atOpen) {
      while (open1 < legs.length) {
        const t = targets[open1];
        const x = !first && o >= t ? o : upAt(k) >= t ? t : Number.NaN;
        if (Number.isNaN(x)) break;
        close1(legs[open1], 'target', k, x);
        open1++;
      }
      if (open1 === legs.length) {
        outcome = 'tp_hit';
        exitAt = k;
        break;
      }
    }
    if (k === horizonEnd) {
      const x = s * close[k];
      for (let q = open1; q < legs.length; q++) close1(legs[q], 'time', k, x);
      outcome = open1 > 0 ? 'tp_hit' : 'time_stopped';
      exitAt = k;
    }
  }
  entered.targets_hit = open1;
  entered.outcome = outcome;
  if (exitAt < 0) return entered;
  let r = 0;
  let ret = 0;
  for (const leg of legs) {
    r += (leg.size_pct / 100) * (leg.r ?? 0);
    ret += (leg.size_pct / 100) * (leg.return_pct ?? 0);
  }
  return {
    ...entered,
    exit_index: exitAt,
    exit_time: time[exitAt],
    bars_held: exitAt - j + 1,
    realized_r: r,
    return_pct: ret,
  };
}
