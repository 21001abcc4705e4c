import { type AnalyzeOptions, analyze } from '../analyze.js';
import { InputError } from '../errors.js';
import type { Direction } from '../plan/plan.js';
import type { SignalCalibration, TimeframeFamily } from '../signal/calibration.js';
import type { PlanEdge } from '../signal/calibration-edge.js';
import { type ContextInput, contextOf } from '../signal/context.js';
import { type PlanOutcome, simulatePlan } from '../simulation/simulate.js';
import type { RecordTrade } from './stats.js';

const DAY_MS = 86_400_000;

/** Candles analysed before the first call of a walk-forward, at most (a third of a shorter series). */
export const WALK_FORWARD_WARMUP = 210;

/**
 * The first instant after the training window of `calibration`'s `family`: the day after the
 * latest `train_to` among the family's files (ms UTC). A call on a candle opening at or after it
 * was made by a calibration that never saw that candle: out of sample. Null when the calibration
 * lists no file of the family.
 */
export function outOfSampleSince(calibration: SignalCalibration, family: TimeframeFamily): number | null {
  let last: number | null = null;
  for (const f of calibration.provenance.files) {
    if (f.family !== family) continue;
    const t = Date.parse(`${f.train_to}T00:00:00Z`);
    if (Number.isFinite(t) && (last === null || t > last)) last = t;
  }
  return last === null ? null : last + DAY_MS;
}

/** Options of {@link walkForward}. */
export interface WalkForwardOptions {
  /** Only candles opening at or after this time (ms UTC) are analysed: the out-of-sample start. */
  since?: number;
  /** First and past-the-last candle index that may be analysed (a caller walks a long series in slices). */
  start?: number;
  end?: number;
  /** Candles read before the first analysis. Default `min(WALK_FORWARD_WARMUP, floor(n / 3))`. */
  warmup?: number;
  /** Analyse every `stride` candles. Default 1. */
  stride?: number;
  /** `analyze`'s options for every analysis (the plan's cost, the signal's edge floor); `asOf` is the walk's. */
  analyze?: Omit<AnalyzeOptions, 'asOf' | 'planDirection'>;
}

/** A call of a walk-forward: a published Buy or Sell, its plan and what became of it. */
export interface WalkForwardCall {
  /** Index and open time of the candle it was made on. */
  index: number;
  time: number;
  side: Direction;
  /** The calibrated probability of target 1 before the stop. */
  confidence: number;
  /** What the plan was worth when made (the signal's edge). */
  edge: PlanEdge | null;
  /** `simulatePlan` on the candles after the call: null while the entry window is still open at the end. */
  outcome: PlanOutcome | null;
  /** Realized R after the plan's round-trip cost; null unless entered and closed. */
  realized_r: number | null;
  /** When the position closed (or the entry window ended); null while open. */
  exit_time: number | null;
}

/** The result of {@link walkForward}. */
export interface WalkForward {
  /** Analyses made. */
  analyses: number;
  /** Open time of the first and last candle analysed; null for none. */
  first_time: number | null;
  last_time: number | null;
  /** Every published Buy or Sell, in candle order. */
  calls: WalkForwardCall[];
  /** The calls entered and closed (tp_hit, stopped_out, time_stopped), for `recordStats`. */
  trades: RecordTrade[];
}

const RESOLVED: ReadonlySet<PlanOutcome> = new Set(['tp_hit', 'stopped_out', 'time_stopped']);

/**
 * A walk-forward of the published signal: at every `stride`-th candle from the warm-up (and from
 * `since`, and within `start..end`) to the second-to-last, `analyze` reads only the candles up to
 * it; a Buy or Sell (a published call, its expected R above the floor at its interval's lower
 * end) has its plan simulated by `simulatePlan` on the candles after it, with the plan's own
 * round-trip cost. Holds (a declined plan included) are analyses, not calls. The last candle is
 * never analysed: no candle after it could score a call. Deterministic and pure.
 * @throws InputError on bad options (and `analyze`'s on bad candles).
 */
export function walkForward(candles: ContextInput, options: WalkForwardOptions = {}): WalkForward {
  const ctx = contextOf(candles);
  const c = ctx.candles;
  const n = ctx.length;
  const stride = options.stride ?? 1;
  if (!Number.isInteger(stride) || stride < 1) {
    throw new InputError('invalid_option', `stride must be a positive integer, got ${String(stride)}`, 'stride');
  }
  const warmup = options.warmup ?? Math.min(WALK_FORWARD_WARMUP, Math.floor(n / 3));
  if (!Number.isInteger(warmup) || warmup < 0) {
    throw new InputError('invalid_option', `warmup must be a non-negative integer, got ${String(warmup)}`, 'warmup');
  }
  let from = Math.max(warmup, options.start ?? 0);
  if (options.since !== undefined) while (from < n && c.time[from] < options.since) from++;
  const end = Math.min(n - 1, options.end ?? n);
  const calls: WalkForwardCall[] = [];
  const trades: RecordTrade[] = [];
  let analyses = 0;
  let first: number | null = null;
  let last: number | null = null;
  for (let i = from; i < end; i += stride) {
    const a = analyze(ctx, { ...options.analyze, asOf: i });
    analyses++;
    first ??= c.time[i];
    last = c.time[i];
    const plan = a.zone;
    if (a.signal.action === 'hold' || plan.direction === null) continue;
    const sim = simulatePlan(plan, c, {
      fromIndex: i + 1,
      ...(plan.cost_pct === null ? {} : { costPct: plan.cost_pct }),
    });
    const edge = a.signal.edge;
    calls.push({
      index: i,
      time: c.time[i],
      side: plan.direction,
      confidence: a.signal.confidence,
      edge,
      outcome: sim.outcome,
      realized_r: sim.realized_r,
      exit_time: sim.exit_time,
    });
    if (sim.outcome !== null && RESOLVED.has(sim.outcome) && sim.realized_r !== null && sim.exit_time !== null) {
      trades.push({
        time: c.time[i],
        closed_at: sim.exit_time,
        realized_r: sim.realized_r,
        hit: sim.outcome === 'tp_hit',
        break_even: edge?.break_even ?? null,
        expected_r: edge?.expected_r ?? null,
        expected_r_low: edge?.expected_r_low ?? null,
        expected_r_high: edge?.expected_r_high ?? null,
      });
    }
  }
  return { analyses, first_time: first, last_time: last, calls, trades };
}
