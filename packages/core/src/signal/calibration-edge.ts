import type { TradePlan } from '../plan/plan.js';
import type { FamilyCalibration, GeometryKnot } from './calibration.js';
import { calibrate, calibratePlan } from './calibration.js';

/**
 * Default level of the intervals of a call's probability and expected R: 0.9, a central 90%
 * interval, so its lower end is a one-sided 95% bound.
 */
export const EDGE_INTERVAL_LEVEL = 0.9;

/** A calibrated probability with its credible interval. */
export interface ProbabilityInterval {
  /** The calibrated probability (`calibrate(curve, evidence)`). */
  probability: number;
  /** Lower and upper end of the central interval at `level`. */
  low: number;
  high: number;
  /** The training plans the probability rests on (effective count between two knots). */
  plans: number;
  level: number;
}

// ln Gamma(x) for x > 0 (Lanczos, g = 7, n = 9; relative error below 1e-13).
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + 7.5;
  for (let k = 1; k < 9; k++) a += LANCZOS[k] / (z + k);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

// Continued fraction of the incomplete beta function (modified Lentz).
function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-15) break;
  }
  return h;
}

/**
 * The regularized incomplete beta function I_x(a, b): the distribution function at `x` of a
 * Beta(a, b) variable (continued fraction, Numerical Recipes 6.4). @internal
 */
export function betaCdf(x: number, a: number, b: number): number {
  if (!(x > 0)) return 0;
  if (!(x < 1)) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(x, a, b)) / a : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/** The `q` quantile of Beta(a, b), by bisection of {@link betaCdf} to 1e-12. @internal */
export function betaQuantile(q: number, a: number, b: number): number {
  let lo = 0;
  let hi = 1;
  for (let k = 0; k < 60 && hi - lo > 1e-12; k++) {
    const mid = (lo + hi) / 2;
    if (betaCdf(mid, a, b) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The training plans of a geometry term's knots at `v`: linear between two knots, flat beyond. */
function knotPlans(k: readonly GeometryKnot[], v: number): number {
  if (k.length === 0) return 0;
  if (v <= k[0].at) return k[0].plans;
  if (v >= k[k.length - 1].at) return k[k.length - 1].plans;
  let j = 1;
  while (v > k[j].at) j++;
  const t = (v - k[j - 1].at) / (k[j].at - k[j - 1].at);
  return (1 - t) * k[j - 1].plans + t * k[j].plans;
}

/**
 * The calibrated probability at raw evidence `evidence` on `curve`, with a credible interval from
 * the calibration's own data: the Beta posterior of the event's rate under Jeffreys' prior,
 * `Beta(p * n + 1/2, (1 - p) * n + 1/2)`, with `n` the training plans behind `p`. With a plan's
 * `breakEven` (see `breakEvenOf`) and a curve that has its `geometry` part, `p` is
 * `calibratePlan(curve, evidence, breakEven)` and `n` the fewer of the plans behind its two terms'
 * knots at the plan's break-even and evidence (linear between two knots, flat beyond); otherwise, the evidence-only curve: at a knot (and
 * beyond the first or last) `n` is the knot's plans; between two knots, where `p` is the mix
 * `(1 - t) * p1 + t * p2`, `n` is the effective count `p (1 - p) / var` with
 * `var = (1 - t)^2 p1 (1 - p1) / n1 + t^2 p2 (1 - p2) / n2`. A curve without knots gives the
 * base rate with the prior's interval (no data: nearly 0 to 1). `level` is the central
 * interval's coverage, default {@link EDGE_INTERVAL_LEVEL}.
 *
 * The interval says how well the training plans pin the rate down; it does not widen for a
 * change of regime after the training years (the held-out drift is reported in EVALUATION.md).
 */
export function probabilityInterval(
  curve: FamilyCalibration,
  evidence: number,
  level: number = EDGE_INTERVAL_LEVEL,
  breakEven: number | null = null,
): ProbabilityInterval {
  const geo = curve.geometry;
  const withGeometry = geo !== undefined && breakEven !== null && Number.isFinite(breakEven);
  const p = withGeometry ? calibratePlan(curve, evidence, breakEven) : calibrate(curve, evidence);
  const k = curve.knots;
  const e = Number.isFinite(evidence) ? evidence : 0;
  let n = 0;
  if (withGeometry) {
    // the fewer of the plans behind the two terms' knots (each linear between two knots)
    n = Math.min(knotPlans(geo.break_even_knots, breakEven), knotPlans(geo.evidence_knots, e));
  } else if (k.length > 0) {
    if (e <= k[0].evidence) n = k[0].plans;
    else if (e >= k[k.length - 1].evidence) n = k[k.length - 1].plans;
    else {
      let j = 1;
      while (e > k[j].evidence) j++;
      const a = k[j - 1];
      const b = k[j];
      const t = (e - a.evidence) / (b.evidence - a.evidence);
      const v =
        ((1 - t) ** 2 * a.probability * (1 - a.probability)) / a.plans +
        (t ** 2 * b.probability * (1 - b.probability)) / b.plans;
      n = v > 0 && p > 0 && p < 1 ? (p * (1 - p)) / v : (1 - t) * a.plans + t * b.plans;
    }
  }
  const alpha = p * n + 0.5;
  const beta = (1 - p) * n + 0.5;
  const tail = (1 - level) / 2;
  return {
    probability: p,
    low: Math.min(p, betaQuantile(tail, alpha, beta)),
    high: Math.max(p, betaQuantile(1 - tail, alpha, beta)),
    plans: n,
    level,
  };
}

/** What a plan is worth at a calibrated probability of reaching target 1 before its stop. */
export interface PlanEdge {
  /** P(target 1 before the stop): the calibrated probability, and its interval. */
  probability: number;
  probability_low: number;
  probability_high: number;
  /** The probability at which the plan's expected R after costs is 0: `loss_r / (win_r + loss_r)`. */
  break_even: number;
  /** R won when target 1 is reached first, after the round trip: `|target 1 - entry| / risk - cost / risk`. */
  win_r: number;
  /** R lost at the stop, with the round trip: `1 + cost / risk`. */
  loss_r: number;
  /** `p * win_r - (1 - p) * loss_r` at the probability and at both ends of its interval. */
  expected_r: number;
  expected_r_low: number;
  expected_r_high: number;
  /** Coverage of both intervals. */
  level: number;
}

/**
 * The expected R after costs of a trade plan whose chance of reaching target 1 before its stop is
 * `p` (see {@link probabilityInterval}), in the R of the simulation (`simulatePlan`): the risk is
 * `|entry_price - stop_loss|`, the round trip `cost = cost_pct / 100 * entry_price` is charged on
 * both outcomes. The event is binary, as the calibration's: a plan reaching target 1 first wins
 * `win_r` (its whole size taken at target 1), any other end loses `loss_r` (a full stop). A time
 * stop usually loses less and a runner to target 2 may win more or give some back, so the figure
 * is a plain reading of the two prices the plan states, not of every path; EVALUATION.md sets it
 * beside the realized R. Expected R is increasing in `p`, so its interval is the image of the
 * probability's. Null for a plan without a trade.
 */
export function planEdge(plan: TradePlan, p: ProbabilityInterval): PlanEdge | null {
  const entry = plan.entry_price;
  const stop = plan.stop_loss;
  const t1 = plan.take_profits[0]?.price;
  if (plan.direction === null || entry === null || stop === null || t1 === undefined) return null;
  const risk = Math.abs(entry - stop);
  if (!(risk > 0)) return null;
  const costR = (((plan.cost_pct ?? 0) / 100) * entry) / risk;
  const win = Math.abs(t1 - entry) / risk - costR;
  const loss = 1 + costR;
  const ev = (q: number): number => q * win - (1 - q) * loss;
  return {
    probability: p.probability,
    probability_low: p.low,
    probability_high: p.high,
    break_even: win > 0 ? loss / (win + loss) : 1,
    win_r: win,
    loss_r: loss,
    expected_r: ev(p.probability),
    expected_r_low: ev(p.low),
    expected_r_high: ev(p.high),
    level: p.level,
  };
}
