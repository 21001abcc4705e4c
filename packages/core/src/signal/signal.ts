import { SIGNAL_FACTORS, type SignalFactor as SignalFactorWord } from '@marketlens/contract/words';
import { InputError } from '../errors.js';
import { type FearGreed, fearGreed } from '../feargreed/fear-greed.js';
import { checkNumber } from '../indicators/internal/validate.js';
import { type SupportResistance, supportResistance } from '../levels/zones.js';
import { buildPlan, type PlanOptions, type TradePlan } from '../plan/plan.js';
import { type Regime, regime } from '../regime/regime.js';
import {
  breakEvenOf,
  calibrate,
  geometryBaseRate,
  type SignalCalibration,
  signalEvidence,
  timeframeFamily,
} from './calibration.js';
import { EDGE_INTERVAL_LEVEL, type PlanEdge, planEdge, probabilityInterval } from './calibration-edge.js';
import { SIGNAL_CALIBRATION } from './calibration-table.js';
import { asOfIndex, type ContextInput, clamp, contextOf, type IndicatorContext, ok, orNull } from './context.js';

/** The recommendation. */
export type SignalAction = 'buy' | 'hold' | 'sell';

/** The factors of the signal. */
export type SignalFactorName = SignalFactorWord;

/** Every factor, in output order (the contract's words, written once in `@marketlens/contract/words`). */
export { SIGNAL_FACTORS };

/**
 * Candles the signal needs, counting the as-of candle: its trend factor reads SMA(200). Below it
 * an analysis publishes a Hold with score 0, confidence 0 and `reason: 'insufficient_data'`,
 * whatever the short-period factors say (`withholdSignal`).
 */
export const SIGNAL_HISTORY = 200;

/**
 * Default factor weights (they sum to 1). `cycle_phase` weighs 0: in the walk-forward on real
 * series (EVALUATION.md, the regime's section) the forward returns after markup and after
 * markdown could not be told apart on the held-out part, so the regime is reported beside the
 * signal but casts no vote by default (give it a weight to restore one).
 */
export const SIGNAL_WEIGHTS: Readonly<Record<SignalFactorName, number>> = {
  // The earlier weights (0.25, 0.2, 0.1, 0.15, 0.15) over the 0.85 left once the cycle phase's
  // 0.15 is taken out: the signal reads as if the factor were absent, nothing else changes.
  trend: 25 / 85,
  momentum: 20 / 85,
  sentiment: 10 / 85,
  breakout: 15 / 85,
  risk: 15 / 85,
  cycle_phase: 0,
};

/**
 * Default margin, in probability, by which a buy's or sell's calibrated confidence must exceed the
 * base rate of its timeframe family to be published; below it the signal holds (`no_edge`).
 */
export const SIGNAL_MIN_EDGE = 0;

/**
 * Default floor of a call's expected R after costs at the lower end of its interval: a buy or sell
 * is published only when that lower end is above it (above zero: an edge the calibration's data
 * support), else the signal holds with `no_edge` and shows the plan it declined.
 */
export const SIGNAL_MIN_EXPECTED_R = 0;

/**
 * What the call (or the declined plan) is worth: the calibrated probability that its plan reaches
 * target 1 before its stop, the plan's break-even probability and its expected R after the asset
 * class's costs, each probability and R with its interval (see {@link PlanEdge}).
 */
export type SignalEdge = PlanEdge;

/**
 * A plan the signal declined: the plan of the side the score called, built as a published one,
 * kept for the record; `recommendation` is always false: it is not a trade to take.
 */
export type DeclinedPlan = TradePlan & { recommendation: false };

/** One factor of the breakdown. */
export interface SignalFactor {
  name: SignalFactorName;
  /** -1 (bearish) .. 1 (bullish); null when it could not be computed (`reason`). */
  score: number | null;
  /** Weight in the composite after renormalising over the factors present (0 when absent). */
  weight: number;
  /** Configured weight, normalised over all six factors. */
  base_weight: number;
  /** `weight * score`: this factor's share of the composite score (0 when absent). */
  contribution: number;
  /** The inputs that moved the score, at the as-of bar. */
  inputs: Record<string, number | string | null>;
  reason?: 'insufficient_data';
}

/** Buy / Hold / Sell with confidence and the weighted factor breakdown: the wire object. */
export interface Signal {
  action: SignalAction;
  /** Composite score in -1..1: the weighted mean of the factor scores present. */
  score: number;
  /**
   * A probability (see {@link signal}): for a buy or sell, that its plan, once entered, reaches
   * target 1 before its stop (after a 0.20% round-trip cost); for a hold, that the plan on the
   * side the score leans to would not. 0 with `reason: 'insufficient_data'`.
   */
  confidence: number;
  /** The uncalibrated evidence measure behind `confidence`, 0..1 (see {@link signal}). */
  raw_confidence: number;
  /**
   * The forecast without the signal, what `confidence` of a buy or sell is to be compared with: for
   * a call judged by a plan with a trade, the probability that plan's geometry alone gives
   * (`geometryBaseRate`: its break-even's term at the training average of the evidence term);
   * otherwise the event's rate over all training plans of the series' timeframe family.
   */
  base_rate: number;
  /** The six factors, in {@link SIGNAL_FACTORS} order. */
  factors: SignalFactor[];
  /** The configured weights, normalised to sum to 1. */
  weights: Record<SignalFactorName, number>;
  /** Composite score beyond which the action is buy (above) or sell (below minus). */
  threshold: number;
  /**
   * `insufficient_data`: no factor could be computed (or, in an analysis, fewer than {@link SIGNAL_HISTORY} candles). `no_edge`: the score called a buy or sell
   * (its side is the sign of `score`) but its calibrated probability was not `minEdge` above
   * the base rate, or the lower end of its expected-R interval after costs was not above
   * `minExpectedR` (or its plan had no trade), so the signal holds. `poor_reward`: the call's plan
   * was declined for its reward (`reason: 'poor_reward'`: target 1 pays less than `minNetRiskReward`
   * after costs, from the close and from every support a limit order could wait at), so the signal holds.
   */
  reason?: 'insufficient_data' | 'no_edge' | 'poor_reward';
  /**
   * For a buy or sell, what its plan is worth; for a hold with `no_edge` or `poor_reward`, what the declined plan
   * would have been worth (null when that plan had no trade); null for any other hold.
   */
  edge: SignalEdge | null;
  /** For a hold with `no_edge` or `poor_reward`: the plan it declined (not a recommendation); else null. */
  declined_plan: DeclinedPlan | null;
}

/** Options of {@link signal}. */
export interface SignalOptions {
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
  /** Factor weights (>= 0, at least one > 0); missing factors keep their default. Normalised. */
  weights?: Partial<Record<SignalFactorName, number>>;
  /** |score| above which the action is buy or sell, in (0, 1). Default 0.15. */
  threshold?: number;
  /** Fear & Greed of the same bar, when already computed (else computed here). */
  fearGreed?: FearGreed;
  /** Regime of the same bar, when already computed (else computed here). */
  regime?: Regime;
  /** Market inputs of the Fear & Greed computed here (funding, breadth, dominance). */
  market?: { funding?: number | null; breadth?: number | null; dominanceChange?: number | null };
  /**
   * A buy or sell is published only when its calibrated probability is at least the base rate
   * plus this margin, in -1..1. -1: never hold for lack of edge (the raw reading of the score: neither
   * this gate nor `minExpectedR`'s applies). Default {@link SIGNAL_MIN_EDGE}.
   */
  minEdge?: number;
  /** The calibration table. Default the fitted {@link SIGNAL_CALIBRATION}. */
  calibration?: SignalCalibration;
  /**
   * A buy or sell is published only when its expected R after costs, at the lower end of its
   * interval, is above this (in R, -100..100). Default {@link SIGNAL_MIN_EXPECTED_R}.
   */
  minExpectedR?: number;
  /** Coverage of the probability and expected-R intervals, in (0, 1). Default {@link EDGE_INTERVAL_LEVEL}. */
  intervalLevel?: number;
  /**
   * Options of the plan a call is judged by (its cost above all: pass the asset class's,
   * `roundTripCostPct`), as `buildPlan` takes them; the direction is the call's.
   */
  plan?: Omit<PlanOptions, 'direction'>;
  /** Support and resistance of the same bar, when already computed (else computed here with ATR(14)). */
  levels?: SupportResistance;
}

interface Raw {
  score: number | null;
  inputs: Record<string, number | string | null>;
}

function div(a: number, b: number): number {
  return b > 0 ? a / b : 0;
}

function meanOf(xs: number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

function trendFactor(ctx: IndicatorContext, i: number): Raw {
  const c = ctx.candles.close[i];
  const e20 = ctx.ema(20)[i];
  const e50col = ctx.ema(50);
  const e50 = e50col[i];
  const a = ctx.atr(14)[i];
  const s200 = ctx.sma(200)[i];
  const adx = ctx.dmi(14).adx[i];
  const slope = i >= 10 ? div(e50 - e50col[i - 10], a) : Number.NaN;
  const inputs = {
    close: c,
    ema_20: orNull(e20),
    ema_50: orNull(e50),
    sma_200: orNull(s200),
    slope_atr: orNull(slope),
    adx_14: orNull(adx),
  };
  if (!ok(e20) || !ok(e50) || !ok(a)) return { score: null, inputs };
  const parts = [clamp(div(c - e50, 3 * a), -1, 1), clamp(div(e20 - e50, 2 * a), -1, 1)];
  if (ok(slope)) parts.push(clamp(slope / 2, -1, 1));
  if (ok(s200)) parts.push(c > s200 ? 1 : c < s200 ? -1 : 0);
  const strength = ok(adx) ? 0.5 + 0.5 * clamp((adx - 15) / 20, 0, 1) : 0.75;
  return { score: meanOf(parts) * strength, inputs };
}

function momentumFactor(ctx: IndicatorContext, i: number): Raw {
  const r = ctx.rsi(14)[i];
  const hist = ctx.macd().histogram[i];
  const k = ctx.stoch().k[i];
  const a = ctx.atr(14)[i];
  const close = ctx.candles.close;
  const change = i >= 10 ? close[i] - close[i - 10] : Number.NaN;
  const inputs = {
    rsi_14: orNull(r),
    macd_histogram: orNull(hist),
    stoch_k: orNull(k),
    change_10: orNull(change),
  };
  if (!ok(r)) return { score: null, inputs };
  const parts = [(r - 50) / 50];
  if (ok(hist) && ok(a)) parts.push(clamp(div(hist, 0.5 * a), -1, 1));
  if (ok(k)) parts.push((k - 50) / 50);
  if (ok(change) && ok(a)) parts.push(clamp(div(change, 3 * a), -1, 1));
  return { score: meanOf(parts), inputs };
}

function sentimentFactor(fg: FearGreed): Raw {
  const inputs = { fear_greed: fg.score, fear_greed_zone: fg.zone };
  if (fg.score === null) return { score: null, inputs };
  return { score: (fg.score - 50) / 50, inputs };
}

/**
 * Volume of bar `i` against the previous `period` bars: z-score (null when their volume has
 * no spread) and ratio to their mean (null when it is 0). @internal
 */
export function volumeStats(ctx: IndicatorContext, i: number, period = 20): { z: number | null; ratio: number | null } {
  if (i < period) return { z: null, ratio: null };
  const { mean: m, sd } = ctx.volumeWindow(period, i - 1);
  const v = ctx.candles.volume[i];
  return { z: sd > 0 ? (v - m) / sd : null, ratio: m > 0 ? v / m : null };
}

/** Volume confirmation of a breakout: z-score >= 1, or volume >= 1.5x its prior mean. @internal */
export function volumeConfirms(stats: { z: number | null; ratio: number | null }): boolean {
  return (stats.z !== null && stats.z >= 1) || (stats.ratio !== null && stats.ratio >= 1.5);
}

function breakoutFactor(ctx: IndicatorContext, i: number): Raw {
  const upper = ctx.highest(20, i - 1);
  const lower = ctx.lowest(20, i - 1);
  const a = ctx.atr(14)[i];
  const c = ctx.candles.close[i];
  const vs = volumeStats(ctx, i);
  const confirmed = volumeConfirms(vs);
  const side = c > upper ? 'up' : c < lower ? 'down' : 'none';
  const inputs = {
    channel_upper: orNull(upper),
    channel_lower: orNull(lower),
    side,
    volume_z: vs.z,
    volume_ratio: vs.ratio,
  };
  if (!ok(upper) || !ok(lower) || !ok(a)) return { score: null, inputs };
  if (side === 'none') return { score: 0, inputs };
  const margin = side === 'up' ? c - upper : lower - c;
  const base = a > 0 ? Math.min(1, 0.5 + margin / a) : 1;
  const s = base * (confirmed ? 1 : 0.5);
  return { score: side === 'up' ? s : -s, inputs };
}

function riskFactor(ctx: IndicatorContext, i: number): Raw {
  const m = ctx.sma(20)[i];
  const sd = ctx.stdDev(20)[i];
  const r = ctx.rsi(14)[i];
  const a = ctx.atr(14)[i];
  const c = ctx.candles.close[i];
  const z = ok(m) && ok(sd) ? div(c - m, sd) : Number.NaN;
  const inputs = { z_score_20: orNull(z), rsi_14: orNull(r), atr_pct: ok(a) && c !== 0 ? (100 * a) / c : null };
  if (!ok(z) || !ok(r)) return { score: null, inputs };
  const stretch = -Math.sign(z) * clamp((Math.abs(z) - 1) / 1.5, 0, 1);
  const extreme = r > 70 ? -(r - 70) / 30 : r < 30 ? (30 - r) / 30 : 0;
  return { score: (stretch + extreme) / 2, inputs };
}

function cycleFactor(rg: Regime): Raw {
  const inputs = { phase: rg.phase, strength: rg.strength, bars_in_phase: rg.bars_in_phase };
  const s = rg.strength ?? 0;
  switch (rg.phase) {
    case 'markup':
      return { score: 0.5 + 0.5 * s, inputs };
    case 'markdown':
      return { score: -(0.5 + 0.5 * s), inputs };
    case 'accumulation':
      return { score: 0.3, inputs };
    case 'distribution':
      return { score: -0.3, inputs };
    case 'range':
      return { score: 0, inputs };
    default:
      return { score: null, inputs };
  }
}

function weightsOf(options?: SignalOptions): Record<SignalFactorName, number> {
  const w = { ...SIGNAL_WEIGHTS };
  const given = options?.weights;
  if (given !== undefined) {
    if (given === null || typeof given !== 'object') {
      throw new InputError('invalid_option', 'weights must be an object of factor weights', 'weights');
    }
    for (const [k, v] of Object.entries(given)) {
      if (!(SIGNAL_FACTORS as readonly string[]).includes(k)) {
        throw new InputError(
          'invalid_option',
          `weights.${k} is not a factor (${SIGNAL_FACTORS.join(', ')})`,
          'weights',
        );
      }
      if (v !== undefined) w[k as SignalFactorName] = checkNumber(`weights.${k}`, v, 0, 1000);
    }
  }
  let sum = 0;
  for (const f of SIGNAL_FACTORS) sum += w[f];
  if (!(sum > 0)) throw new InputError('invalid_option', 'at least one factor weight must be positive', 'weights');
  for (const f of SIGNAL_FACTORS) w[f] /= sum;
  return w;
}

/**
 * Buy / Hold / Sell with a confidence in 0..1 and a weighted factor breakdown.
 *
 * Factors (score in -1..1, positive bullish; ATR is ATR(14), Wilder):
 * - `trend`: mean of `clamp((close - EMA50) / 3ATR)`, `clamp((EMA20 - EMA50) / 2ATR)`,
 *   `clamp(slope / 2)` with `slope = (EMA50 - EMA50[10]) / ATR`, and the side of SMA200 (+-1),
 *   the last two when defined; scaled by trend strength `0.5 + 0.5 * clamp((ADX14 - 15) / 20, 0, 1)`.
 * - `momentum`: mean of `(RSI14 - 50) / 50`, `clamp(MACD histogram / 0.5ATR)`,
 *   `(Stoch %K - 50) / 50` and `clamp((close - close[10]) / 3ATR)`.
 * - `sentiment`: `(FearGreed - 50) / 50` (see `fearGreed`).
 * - `breakout`: close beyond the prior 20-bar Donchian channel (bars i-20..i-1): `+-min(1,
 *   0.5 + margin / ATR)`, halved without volume confirmation (volume z-score >= 1 over the prior
 *   20 bars, or volume >= 1.5x their mean); 0 inside the channel.
 * - `risk` (stretch, against the move): mean of `-sign(z) * clamp((|z| - 1) / 1.5, 0, 1)` with
 *   `z = (close - SMA20) / stddev20`, and RSI extremes (`-(RSI - 70) / 30` above 70,
 *   `(30 - RSI) / 30` below 30).
 * - `cycle_phase` (see `regime`): markup `0.5 + 0.5 * strength`, markdown the negative,
 *   accumulation 0.3, distribution -0.3, range 0 (a pause within an intact uptrend reads markup,
 *   so a continuing advance never scores bearish here). Its default weight is 0: reported, no
 *   vote, since the walk-forward found no held-out value in it.
 * Composite `score = sum(w * s) / sum(w)` over the factors present (weights default
 * {@link SIGNAL_WEIGHTS}, renormalised; a factor in warm-up is absent with a reason).
 * Raw action: `buy` when `score > threshold` (0.15), `sell` when `score < -threshold`, else `hold`.
 * Raw evidence (`raw_confidence`) measures the evidence for the raw action, never its absence.
 * With `coverage` = the configured weight of the factors present, and the weighted evidence on
 * each side `bull = sum(w * max(s, 0))`, `bear = sum(w * max(-s, 0))` (renormalised `w`, so
 * `score = bull - bear`):
 * - buy/sell: `coverage * (0.5 * min(1, |score| / 0.5) + 0.5 * agreement)`, where `agreement`
 *   is the action's side's share of the evidence (`bull / (bull + bear)` for a buy);
 * - hold: `coverage * max(0, 2 * min(bull, bear) - |score|)`: the evidence both ways that
 *   cancels out, less the lean that is left.
 *
 * Confidence is a probability. The event: the default plan on a side, once entered, reaches
 * target 1 before its stop and before its time stop, with the 0.20% round-trip cost (see
 * `simulatePlan`). `p` is its calibrated probability for the side the score leans to, from the
 * calibration of the series' timeframe family (`timeframeFamily`; fitted on walk-forward outcomes
 * of real series, {@link SIGNAL_CALIBRATION}, which documents its data and fit): for a buy or sell
 * with a plan, `sigmoid(slope * logit(q) + g(evidence))` with `q` the plan's break-even after
 * costs (`breakEvenOf`: a driftless walk's chance of target 1 first) and `g` a monotone function
 * of the evidence formula above (`calibratePlan`); otherwise (a hold, or a call whose plan has
 * no trade) the evidence-only monotone curve (`calibrate`). `base_rate` is the forecast without
 * the signal: for a call judged by a plan with a trade, its geometry's alone (`geometryBaseRate`,
 * the evidence term at its training average); otherwise the event's rate over all the family's
 * training plans.
 * - A raw buy/sell is judged by the plan it would publish (`buildPlan` on its side with the levels
 *   of the bar and `options.plan`, whose `costPct` should be the asset class's): `edge` gives `p`
 *   with its credible interval from the calibration's data (`probabilityInterval`: the Beta
 *   posterior of the knots' training plans, central `intervalLevel`, default 90%), the plan's
 *   break-even probability and its expected R after costs with its interval (`planEdge`).
 * - It is published when `p >= base_rate + minEdge` (default {@link SIGNAL_MIN_EDGE}) and the lower
 *   end of its expected-R interval is above `minExpectedR` (default {@link SIGNAL_MIN_EXPECTED_R}:
 *   0, an edge after costs); its confidence is `p`. Otherwise (a plan without a trade included)
 *   the signal holds with `reason: 'no_edge'` (`'poor_reward'` when the plan was declined for its
 *   reward after costs), keeps the call's `edge` and shows the plan as `declined_plan`, marked
 *   `recommendation: false`.
 * - A hold's confidence is `1 - p`: the probability that the plan it declines (on the side the
 *   score leans to; any side at score 0) would not reach target 1 first. It is not a confidence in
 *   holding, and the narrative never presents it as one.
 * Where the data show no edge the curve is flat at the base rate, so every buy and sell there
 * holds: that is the measured outcome, not a default.
 * With no factor present: hold, score 0, confidence 0, raw 0, `reason: 'insufficient_data'`.
 * An analysis withholds the signal the same way below {@link SIGNAL_HISTORY} (200) candles
 * (`withholdSignal`), whatever the short-period factors say.
 * Reads candles `0..asOf` only (the Fear & Greed and regime given in options must be of the
 * same bar).
 * @example
 * ```ts
 * import { signal } from '@marketlens/core';
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
 * const s = signal(candles);
 * console.log(s.action, s.confidence, s.base_rate, s.reason ?? '');
 * for (const f of s.factors) console.log(f.name, f.score, f.contribution);
 * ```
 * @throws InputError on bad candles or options.
 */
export function signal(input: ContextInput, options?: SignalOptions): Signal {
  return signalAndPlan(input, options).signal;
}

/**
 * {@link signal} and, for a published buy or sell, the plan it was judged by (null otherwise), so
 * that `analyze` publishes that very plan. @internal
 */
export function signalAndPlan(
  input: ContextInput,
  options?: SignalOptions,
): { signal: Signal; plan: TradePlan | null } {
  const ctx = contextOf(input);
  const i = asOfIndex(ctx, options?.asOf);
  const weights = weightsOf(options);
  const threshold = checkNumber('threshold', options?.threshold ?? 0.15, Number.MIN_VALUE, 0.999);
  const fg = options?.fearGreed ?? fearGreed(ctx, { asOf: i, ...options?.market });
  const rg = options?.regime ?? regime(ctx, { asOf: i });
  const minEdge = checkNumber('minEdge', options?.minEdge ?? SIGNAL_MIN_EDGE, -1, 1);
  const minExpectedR = checkNumber('minExpectedR', options?.minExpectedR ?? SIGNAL_MIN_EXPECTED_R, -100, 100);
  const level = checkNumber('intervalLevel', options?.intervalLevel ?? EDGE_INTERVAL_LEVEL, 0.001, 0.999);
  const calibration = options?.calibration ?? SIGNAL_CALIBRATION;

  const raws: Record<SignalFactorName, Raw> = {
    trend: trendFactor(ctx, i),
    momentum: momentumFactor(ctx, i),
    sentiment: sentimentFactor(fg),
    breakout: breakoutFactor(ctx, i),
    risk: riskFactor(ctx, i),
    cycle_phase: cycleFactor(rg),
  };
  let coverage = 0;
  for (const f of SIGNAL_FACTORS) if (raws[f].score !== null) coverage += weights[f];

  const factors: SignalFactor[] = [];
  for (const f of SIGNAL_FACTORS) {
    const r = raws[f];
    const s = r.score === null ? null : clamp(r.score, -1, 1);
    const w = s === null || coverage === 0 ? 0 : weights[f] / coverage;
    // + 0 turns the -0 of a zero weight times a negative score into 0, which JSON cannot tell apart
    const contribution = s === null ? 0 : w * s + 0;
    const factor: SignalFactor = {
      name: f,
      score: s,
      weight: w,
      base_weight: weights[f],
      contribution,
      inputs: r.inputs,
    };
    if (s === null) factor.reason = 'insufficient_data';
    factors.push(factor);
  }
  const curve = calibration?.families?.[timeframeFamily(ctx.candles.time, i)];
  if (curve == null || !Array.isArray(curve.knots) || !Number.isFinite(curve.base_rate)) {
    throw new InputError(
      'invalid_option',
      'calibration must be a SignalCalibration (see fitCalibration)',
      'calibration',
    );
  }
  let base_rate = curve.base_rate;
  if (coverage === 0) {
    return {
      signal: {
        action: 'hold',
        score: 0,
        confidence: 0,
        raw_confidence: 0,
        base_rate,
        factors,
        weights,
        threshold,
        reason: 'insufficient_data',
        edge: null,
        declined_plan: null,
      },
      plan: null,
    };
  }
  const raw = decideSignal(factors, threshold);
  const evidence = signalEvidence(factors);
  // The calibrated probability that the plan on the leaning side reaches target 1 first: from the
  // evidence alone, then (for a call with a plan) conditioned on that plan's geometry.
  let p = evidence.side === null ? base_rate : calibrate(curve, evidence.evidence);
  let plan: TradePlan | null = null;
  let edge: PlanEdge | null = null;
  if (raw.action !== 'hold') {
    // The call is judged by the plan it would publish: its probability against its break-even.
    const levels = options?.levels ?? supportResistance(ctx.candles, { asOf: i, atr: ctx.atr(14) });
    plan = buildPlan(ctx.candles, levels, { ...options?.plan, direction: raw.action === 'buy' ? 'long' : 'short' });
    const breakEven = breakEvenOf(plan);
    const interval = probabilityInterval(curve, evidence.evidence, level, breakEven);
    p = interval.probability;
    // without the signal, this plan's chance is its geometry's: the gate asks what the evidence adds
    base_rate = geometryBaseRate(curve, breakEven);
    edge = planEdge(plan, interval);
  }
  // minEdge -1 is the raw reading of the score: no call is held for lack of edge.
  const gated = minEdge > -1;
  const published =
    raw.action !== 'hold' &&
    (!gated || (p >= base_rate + minEdge && edge !== null && edge.expected_r_low > minExpectedR));
  const result: Signal = {
    action: published ? raw.action : 'hold',
    score: raw.score,
    confidence: published ? p : 1 - p,
    raw_confidence: raw.confidence,
    base_rate,
    factors,
    weights,
    threshold,
    edge,
    declined_plan: plan !== null && !published ? { ...plan, recommendation: false } : null,
  };
  if (raw.action !== 'hold' && !published) result.reason = plan?.reason === 'poor_reward' ? 'poor_reward' : 'no_edge';
  return { signal: result, plan: published ? plan : null };
}

/**
 * The raw action, composite score and raw confidence (`raw_confidence`) of a factor breakdown,
 * by the rules of {@link signal} before calibration and the edge gate: only `score` (null when
 * absent) and `base_weight` of each factor are read. With no factor present: hold, score 0,
 * confidence 0. @internal
 */
export function decideSignal(
  factors: readonly Pick<SignalFactor, 'score' | 'base_weight'>[],
  threshold: number,
): { action: SignalAction; score: number; confidence: number } {
  let coverage = 0;
  for (const f of factors) if (f.score !== null) coverage += f.base_weight;
  if (!(coverage > 0)) return { action: 'hold', score: 0, confidence: 0 };
  let score = 0;
  for (const f of factors) if (f.score !== null) score += (f.base_weight / coverage) * f.score;
  score = clamp(score, -1, 1);
  const action: SignalAction = score > threshold ? 'buy' : score < -threshold ? 'sell' : 'hold';
  // Weighted evidence on each side: bull - bear is the score before clamping.
  let bull = 0;
  let bear = 0;
  for (const f of factors) {
    if (f.score === null) continue;
    const e = (f.base_weight / coverage) * f.score;
    if (e > 0) bull += e;
    else bear -= e;
  }
  let confidence: number;
  if (action === 'hold') {
    // What argues for holding is evidence both ways that cancels; the lean left over argues
    // for a call instead. Nothing present is no reason to hold.
    confidence = coverage * Math.max(0, 2 * Math.min(bull, bear) - Math.abs(score));
  } else {
    const agreement = (action === 'buy' ? bull : bear) / (bull + bear);
    confidence = coverage * (0.5 * Math.min(1, Math.abs(score) / 0.5) + 0.5 * agreement);
  }
  return { action, score, confidence: clamp(confidence, 0, 1) };
}
