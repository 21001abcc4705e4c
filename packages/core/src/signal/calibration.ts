/** The evidence of a factor breakdown for the side its composite score leans to. */
export interface SignalEvidence {
  /** The side the composite score leans to; null when it is 0 or no factor is present. */
  side: 'buy' | 'sell' | null;
  /** `min(1, |score| / 0.5)`. */
  strength: number;
  /** The side's share of the weighted evidence (`bull / (bull + bear)` for a buy). */
  agreement: number;
  /** The configured weight of the factors present. */
  coverage: number;
  /** `coverage * (0.5 * strength + 0.5 * agreement)`: the raw confidence of a buy or sell. */
  evidence: number;
}

/**
 * The evidence for the side a factor breakdown leans to (see `signal`): only `score` (null when
 * absent) and `base_weight` of each factor are read.
 */
export function signalEvidence(factors: readonly { score: number | null; base_weight: number }[]): SignalEvidence {
  let coverage = 0;
  for (const f of factors) if (f.score !== null) coverage += f.base_weight;
  if (!(coverage > 0)) return { side: null, strength: 0, agreement: 0, coverage: 0, evidence: 0 };
  let bull = 0;
  let bear = 0;
  for (const f of factors) {
    if (f.score === null) continue;
    const e = (f.base_weight / coverage) * Math.max(-1, Math.min(1, f.score));
    if (e > 0) bull += e;
    else bear -= e;
  }
  const score = Math.max(-1, Math.min(1, bull - bear));
  if (score === 0) return { side: null, strength: 0, agreement: 0, coverage, evidence: 0 };
  const side = score > 0 ? 'buy' : 'sell';
  const strength = Math.min(1, Math.abs(score) / 0.5);
  const agreement = (side === 'buy' ? bull : bear) / (bull + bear);
  const evidence = Math.max(0, Math.min(1, coverage * (0.5 * strength + 0.5 * agreement)));
  return { side, strength, agreement, coverage, evidence };
}

/**
 * The timeframe family a calibration table is fitted for: `intraday` (candles under 20 hours
 * apart) or `daily` (daily and longer).
 */
export type TimeframeFamily = 'intraday' | 'daily';

/** Every family, in table order. */
export const TIMEFRAME_FAMILIES: readonly TimeframeFamily[] = ['intraday', 'daily'];

/**
 * The family of a series as of candle `i`: the median spacing of its last (up to) 20 candle
 * times is 20 hours or more for `daily`. A single candle reads `daily`.
 */
export function timeframeFamily(time: ArrayLike<number>, i: number): TimeframeFamily {
  const k = Math.min(20, i);
  if (k < 1) return 'daily';
  const gaps: number[] = [];
  for (let j = i - k + 1; j <= i; j++) gaps.push(time[j] - time[j - 1]);
  gaps.sort((a, b) => a - b);
  return gaps[gaps.length >> 1] >= 20 * 3_600_000 ? 'daily' : 'intraday';
}

/** One knot of a calibration curve. */
export interface CalibrationKnot {
  /** Mean raw evidence of the knot's training plans. */
  evidence: number;
  /** Their realized rate of the event (target 1 before the stop). */
  probability: number;
  /** How many training plans the knot pools. */
  plans: number;
}

/** The calibration of one timeframe family: a monotone curve from raw evidence to probability. */
export interface FamilyCalibration {
  /** The event's rate over all the family's training plans: the forecast without the signal. */
  base_rate: number;
  /** Training plans (entered and closed) and how many reached target 1 first. */
  plans: number;
  hits: number;
  /**
   * The curve's direction, chosen on the training plans by Kendall's tau between evidence and
   * outcome; `constant` (the base rate everywhere) unless |tau| is 2 standard errors from 0.
   */
  direction: 'increasing' | 'decreasing' | 'constant';
  /** Kendall's tau-b of evidence against outcome on the training plans, and its z-score. */
  tau: number;
  z: number;
  /** Knots by ascending evidence; the curve interpolates linearly between them, flat beyond. */
  knots: readonly CalibrationKnot[];
  /**
   * The calibration conditioned on the plan's geometry (issue 38): the probability of a plan with
   * break-even `q` (see {@link breakEvenOf}) at raw evidence `e` is
   * `sigmoid(h(q) + g(e))` (see {@link calibratePlan}). Absent: the curve above only.
   */
  geometry?: GeometryCalibration;
}

/** One knot of a monotone log-odds term of a {@link GeometryCalibration}. */
export interface GeometryKnot {
  /** Mean of the term's input over the knot's training plans (raw evidence, or break-even). */
  at: number;
  /** The term's log-odds there (maximum likelihood on the block, given the other term). */
  offset: number;
  /** How many training plans the knot pools, and how many reached target 1 first. */
  plans: number;
  hits: number;
}

/**
 * The probability of target 1 before the stop given the plan's geometry and the signal's evidence:
 * `logit(P) = h(q) + g(evidence)`, with `q = loss_r / (win_r + loss_r)` the plan's break-even after
 * its round-trip cost (a driftless walk reaches `+a` before `-b` with probability `b / (a + b)`,
 * which is `q` for the distances `a` to target 1 and `b` to the stop after costs). `h` is
 * non-decreasing in `q` (a nearer target relative to the stop is never less likely to be reached
 * first), `g` monotone in the evidence; both are step functions fitted by maximum likelihood on the
 * training plans and read linearly between their knots (see {@link fitGeometryCalibration}).
 */
export interface GeometryCalibration {
  /** Knots of `h` by ascending break-even: linear between them, flat beyond. */
  break_even_knots: readonly GeometryKnot[];
  /**
   * The direction of `g` in evidence, from the score test of the evidence on the geometry-only
   * fit's residuals; `constant` (one offset, 0) unless |z| is at least `minZ`.
   */
  direction: 'increasing' | 'decreasing' | 'constant';
  /** The score test's z. */
  z: number;
  /** Knots of `g` by ascending evidence: linear between them, flat beyond. */
  evidence_knots: readonly GeometryKnot[];
}

/** Options of {@link fitCalibration}. */
export interface FitCalibrationOptions {
  /** Fewest plans per knot: neighbouring pooled blocks merge until each has this many. Default 150. */
  minPlans?: number;
  /** |z| of Kendall's tau below which the curve is the constant base rate. Default 2. */
  minZ?: number;
}

/** One training plan of a calibration: its raw evidence and whether the event happened. */
export interface CalibrationSample {
  evidence: number;
  hit: boolean;
  /** The plan's break-even probability after costs (see {@link breakEvenOf}); for the geometry fit. */
  breakEven?: number;
}

/** Kendall's tau-b of x against a 0/1 outcome, and its z-score under independence. */
function kendall(xs: readonly CalibrationSample[]): { tau: number; z: number } {
  // Sorted by evidence, each hit is concordant with the misses below it and discordant with
  // those above (ties in evidence count neither).
  const n = xs.length;
  const s = [...xs].sort((a, b) => a.evidence - b.evidence);
  const misses = s.reduce((m, x) => m + (x.hit ? 0 : 1), 0);
  const hits = n - misses;
  let missesBelow = 0;
  let concordant = 0;
  let discordant = 0;
  for (let a = 0; a < n; ) {
    let b = a;
    let groupMisses = 0;
    let groupHits = 0;
    while (b < n && s[b].evidence === s[a].evidence) {
      if (s[b].hit) groupHits++;
      else groupMisses++;
      b++;
    }
    concordant += groupHits * missesBelow;
    discordant += groupHits * (misses - missesBelow - groupMisses);
    missesBelow += groupMisses;
    a = b;
  }
  // Variance of S = concordant - discordant under independence, corrected for the ties of the
  // outcome (Kendall 1970); ties in evidence are rare and left out.
  const pairs = (n * (n - 1)) / 2;
  const tiedY = (hits * (hits - 1)) / 2 + (misses * (misses - 1)) / 2;
  const denom = Math.sqrt(pairs * (pairs - tiedY));
  const S = concordant - discordant;
  const v = (t: number): number => t * (t - 1) * (2 * t + 5);
  const variance = (v(n) - v(hits) - v(misses)) / 18;
  return { tau: denom > 0 ? S / denom : 0, z: variance > 0 ? S / Math.sqrt(variance) : 0 };
}

/**
 * Fits a monotone calibration (isotonic regression by pool-adjacent-violators, in the direction of
 * Kendall's tau) from raw evidence to the event's probability. Blocks with fewer than `minPlans`
 * plans merge with a neighbour; with no significant tau the curve is the base rate. When the
 * samples carry their plan's `breakEven`, the curve also gets its geometry-conditioned part
 * (`geometry`, see {@link fitGeometryCalibration}), which the signal uses for a call with a plan.
 * Pure and deterministic: the same samples give the same curve.
 */
export function fitCalibration(
  samples: readonly CalibrationSample[],
  options?: FitCalibrationOptions,
): FamilyCalibration {
  const minPlans = options?.minPlans ?? 150;
  const minZ = options?.minZ ?? 2;
  const n = samples.length;
  const hits = samples.reduce((h, x) => h + (x.hit ? 1 : 0), 0);
  const base = n > 0 ? hits / n : 0;
  const { tau, z } = n > 1 ? kendall(samples) : { tau: 0, z: 0 };
  const fitted = fitGeometryCalibration(samples, options);
  const geometry = fitted === null ? {} : { geometry: fitted };
  const constant = (): FamilyCalibration => ({
    base_rate: base,
    plans: n,
    hits,
    direction: 'constant',
    tau,
    z,
    knots: n > 0 ? [{ evidence: samples.reduce((e, x) => e + x.evidence, 0) / n, probability: base, plans: n }] : [],
    ...geometry,
  });
  if (!(Math.abs(z) >= minZ) || n < 2 * minPlans) return constant();
  const sign = tau > 0 ? 1 : -1;
  // PAV on the outcome with evidence in the fit's direction (decreasing: fit -outcome upward).
  const sorted = [...samples].sort((a, b) => a.evidence - b.evidence);
  interface Block {
    w: number;
    y: number;
    e: number;
  }
  const blocks: Block[] = [];
  const merge = (a: Block, b: Block): Block => ({ w: a.w + b.w, y: a.y + b.y, e: a.e + b.e });
  const level = (b: Block): number => (sign * b.y) / b.w;
  for (let a = 0; a < n; ) {
    // tied evidence is one block: the curve is a function of evidence
    let block: Block = { w: 0, y: 0, e: 0 };
    const ev = sorted[a].evidence;
    while (a < n && sorted[a].evidence === ev) {
      block = merge(block, { w: 1, y: sorted[a].hit ? 1 : 0, e: ev });
      a++;
    }
    blocks.push(block);
    while (blocks.length > 1 && level(blocks[blocks.length - 2]) >= level(blocks[blocks.length - 1])) {
      const last = blocks.pop() as Block;
      blocks.push(merge(blocks.pop() as Block, last));
    }
  }
  // Small blocks merge with the neighbour whose level is closer (monotone order is kept).
  for (;;) {
    let k = -1;
    for (let j = 0; j < blocks.length; j++) if (blocks[j].w < minPlans && (k < 0 || blocks[j].w < blocks[k].w)) k = j;
    if (k < 0 || blocks.length === 1) break;
    const left = k > 0 ? Math.abs(level(blocks[k]) - level(blocks[k - 1])) : Number.POSITIVE_INFINITY;
    const right = k < blocks.length - 1 ? Math.abs(level(blocks[k + 1]) - level(blocks[k])) : Number.POSITIVE_INFINITY;
    const j = left <= right ? k - 1 : k;
    blocks.splice(j, 2, merge(blocks[j], blocks[j + 1]));
  }
  if (blocks.length === 1) return constant();
  return {
    base_rate: base,
    plans: n,
    hits,
    direction: sign > 0 ? 'increasing' : 'decreasing',
    tau,
    z,
    knots: blocks.map((b) => ({ evidence: b.e / b.w, probability: b.y / b.w, plans: b.w })),
    ...geometry,
  };
}

/**
 * The calibrated probability of the event at raw evidence `evidence` on `curve`: linear between
 * knots, flat beyond the first and last. Monotone in `evidence` in the curve's direction and
 * within [0, 1]; the base rate when the curve has no knot.
 */
export function calibrate(curve: FamilyCalibration, evidence: number): number {
  const k = curve.knots;
  if (k.length === 0) return curve.base_rate;
  const e = Number.isFinite(evidence) ? evidence : 0;
  if (e <= k[0].evidence) return k[0].probability;
  for (let j = 1; j < k.length; j++) {
    if (e <= k[j].evidence) {
      const t = (e - k[j - 1].evidence) / (k[j].evidence - k[j - 1].evidence);
      return k[j - 1].probability + t * (k[j].probability - k[j - 1].probability);
    }
  }
  return k[k.length - 1].probability;
}

/** Where a calibration table comes from. */
export interface CalibrationProvenance {
  /** The event whose probability the table gives. */
  event: string;
  /** Which plans it was fitted on. */
  population: string;
  /** The raw evidence it maps. */
  evidence: string;
  /** How the data was split into training and held-out parts. */
  split: string;
  /** The fit method. */
  method: string;
  /** Date of the fit (YYYY-MM-DD). */
  fitted: string;
  /** The data files, their family, training date range and training counts. */
  files: readonly {
    file: string;
    family: TimeframeFamily;
    candles: number;
    train_from: string;
    train_to: string;
    plans: number;
    hits: number;
  }[];
}

/** A calibration of the signal's confidence: one curve per timeframe family, with provenance. */
export interface SignalCalibration {
  provenance: CalibrationProvenance;
  families: Readonly<Record<TimeframeFamily, FamilyCalibration>>;
}

/** Bound of a fitted log-odds offset (a block where every plan hit, or none did). */
const MAX_OFFSET = 12;

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/**
 * The break-even probability of a plan after its round-trip cost, `loss_r / (win_r + loss_r)` with
 * `win_r = (|target 1 - entry| - cost) / risk`, `loss_r = (risk + cost) / risk` and
 * `cost = cost_pct / 100 * entry` (as {@link planEdge} reads a plan), which is `b / (a + b)` for the
 * distances `a` to target 1 and `b` to the stop after costs. 1 when target 1 does not pay the cost;
 * null for a plan without a trade.
 */
export function breakEvenOf(plan: {
  direction: 'long' | 'short' | null;
  entry_price: number | null;
  stop_loss: number | null;
  take_profits: readonly { price: number }[];
  cost_pct: number | null;
}): number | null {
  const t1 = plan.take_profits[0]?.price;
  if (plan.direction === null || plan.entry_price === null || plan.stop_loss === null || t1 === undefined) return null;
  const risk = Math.abs(plan.entry_price - plan.stop_loss);
  if (!(risk > 0)) return null;
  const cost = ((plan.cost_pct ?? 0) / 100) * plan.entry_price;
  const a = Math.abs(t1 - plan.entry_price) - cost;
  const b = risk + cost;
  return a > 0 ? b / (a + b) : 1;
}

/** The offset `c` with `sum sigmoid(o_k + c) = hits` over `o[from..to)` (Newton, bounded). */
function solveOffset(o: Float64Array, y: Uint8Array, from: number, to: number, start: number): number {
  let hits = 0;
  for (let k = from; k < to; k++) hits += y[k];
  const n = to - from;
  if (hits === 0) return -MAX_OFFSET;
  if (hits === n) return MAX_OFFSET;
  let c = Math.max(-MAX_OFFSET, Math.min(MAX_OFFSET, start));
  for (let it = 0; it < 60; it++) {
    let f = -hits;
    let d = 0;
    for (let k = from; k < to; k++) {
      const q = sigmoid(o[k] + c);
      f += q;
      d += q * (1 - q);
    }
    if (Math.abs(f) < 1e-10 * n) break;
    const step = d > 1e-12 ? f / d : Math.sign(f);
    c = Math.max(-MAX_OFFSET, Math.min(MAX_OFFSET, c - Math.max(-2, Math.min(2, step))));
  }
  return c;
}

/**
 * A monotone step function of `x` (sorted ascending) in log-odds, given the other term's offsets
 * `o` (aligned with `x`): pool-adjacent-violators on blocks of tied `x`, each block's level its
 * maximum-likelihood offset, in direction `sign`; blocks under `minPlans` plans merge with the
 * neighbour nearer in level. Returns the knots (mean `x`, offset, plans, hits) and writes each
 * plan's fitted level into `out`.
 */
function monotoneOffsets(
  x: Float64Array,
  y: Uint8Array,
  o: Float64Array,
  sign: number,
  minPlans: number,
  out: Float64Array,
): GeometryKnot[] {
  const n = x.length;
  interface Block {
    from: number;
    to: number;
    c: number;
  }
  const solve = (from: number, to: number, start: number): Block => ({
    from,
    to,
    c: solveOffset(o, y, from, to, start),
  });
  const blocks: Block[] = [];
  for (let a = 0; a < n; ) {
    let b = a;
    while (b < n && x[b] === x[a]) b++;
    blocks.push(solve(a, b, 0));
    a = b;
    while (blocks.length > 1 && sign * blocks[blocks.length - 2].c >= sign * blocks[blocks.length - 1].c) {
      const last = blocks.pop() as Block;
      const prev = blocks.pop() as Block;
      blocks.push(solve(prev.from, last.to, (prev.c + last.c) / 2));
    }
  }
  for (;;) {
    let k = -1;
    for (let j = 0; j < blocks.length; j++) {
      const w = blocks[j].to - blocks[j].from;
      if (w < minPlans && (k < 0 || w < blocks[k].to - blocks[k].from)) k = j;
    }
    if (k < 0 || blocks.length === 1) break;
    const left = k > 0 ? Math.abs(blocks[k].c - blocks[k - 1].c) : Number.POSITIVE_INFINITY;
    const right = k < blocks.length - 1 ? Math.abs(blocks[k + 1].c - blocks[k].c) : Number.POSITIVE_INFINITY;
    const j = left <= right ? k - 1 : k;
    blocks.splice(j, 2, solve(blocks[j].from, blocks[j + 1].to, (blocks[j].c + blocks[j + 1].c) / 2));
  }
  return blocks.map((b) => {
    let sum = 0;
    let h = 0;
    for (let k = b.from; k < b.to; k++) {
      sum += x[k];
      h += y[k];
      out[k] = b.c;
    }
    return { at: sum / (b.to - b.from), offset: b.c, plans: b.to - b.from, hits: h };
  });
}

/** A step function's knots read linearly between them, flat beyond; 0 without knots. */
function readKnots(k: readonly GeometryKnot[], v: number): number {
  if (k.length === 0) return 0;
  const x = Number.isFinite(v) ? v : 0;
  if (x <= k[0].at) return k[0].offset;
  for (let j = 1; j < k.length; j++) {
    if (x <= k[j].at) {
      const t = (x - k[j - 1].at) / (k[j].at - k[j - 1].at);
      return k[j - 1].offset + t * (k[j].offset - k[j - 1].offset);
    }
  }
  return k[k.length - 1].offset;
}

/**
 * Fits the geometry-conditioned calibration of {@link GeometryCalibration} on training plans that
 * carry their `breakEven`: `logit(P) = h(q) + g(evidence)`, both terms monotone step functions of
 * maximum likelihood (pool-adjacent-violators of block offsets, blocks of at least `minPlans`
 * plans). First `h` alone, non-decreasing in the break-even; then a score test of the evidence on
 * that fit's residuals: with |z| at least `minZ`, `g` is fitted in the sign of z given `h`, and the
 * two are refitted in turn (backfitting, three rounds); else `g` is 0. Plans without a finite
 * `breakEven` are left out. Pure and deterministic. Null with fewer than `2 * minPlans` plans or
 * without both outcomes.
 */
export function fitGeometryCalibration(
  samples: readonly CalibrationSample[],
  options?: FitCalibrationOptions,
): GeometryCalibration | null {
  const minPlans = options?.minPlans ?? 150;
  const minZ = options?.minZ ?? 2;
  const rows = samples
    .map((x, k) => ({ e: x.evidence, q: x.breakEven, y: x.hit ? 1 : 0, k }))
    .filter((r) => r.q !== undefined && Number.isFinite(r.q) && Number.isFinite(r.e))
    .map((r) => ({ ...r, q: Math.min(1, Math.max(0, r.q as number)) }));
  const n = rows.length;
  const hits = rows.reduce((h, r) => h + r.y, 0);
  if (n < 2 * minPlans || hits === 0 || hits === n) return null;
  // the same plans in two orders: by break-even (for h) and by evidence (for g)
  const byQ = [...rows].sort((a, b) => a.q - b.q || a.k - b.k);
  const byE = [...rows].sort((a, b) => a.e - b.e || a.k - b.k);
  const posQ = new Map(byQ.map((r, j) => [r.k, j]));
  const xq = Float64Array.from(byQ, (r) => r.q);
  const yq = Uint8Array.from(byQ, (r) => r.y);
  const xe = Float64Array.from(byE, (r) => r.e);
  const ye = Uint8Array.from(byE, (r) => r.y);
  const hq = new Float64Array(n); // h per plan, in byQ order
  const ge = new Float64Array(n); // g per plan, in byE order
  const oq = new Float64Array(n); // g as the offset of h's fit, in byQ order
  const oe = new Float64Array(n); // h as the offset of g's fit, in byE order
  const fitH = (): GeometryKnot[] => {
    for (let j = 0; j < n; j++) oq[posQ.get(byE[j].k) as number] = ge[j];
    return monotoneOffsets(xq, yq, oq, 1, minPlans, hq);
  };
  const fitG = (sign: number): GeometryKnot[] => {
    for (let j = 0; j < n; j++) oe[j] = hq[posQ.get(byE[j].k) as number];
    return monotoneOffsets(xe, ye, oe, sign, minPlans, ge);
  };
  let hKnots = fitH();
  // the score test of the evidence on the residuals of the geometry-only fit
  let meanE = 0;
  for (let j = 0; j < n; j++) meanE += xe[j];
  meanE /= n;
  let score = 0;
  let info = 0;
  for (let j = 0; j < n; j++) {
    const p = sigmoid(hq[posQ.get(byE[j].k) as number]);
    score += (xe[j] - meanE) * (ye[j] - p);
    info += (xe[j] - meanE) ** 2 * p * (1 - p);
  }
  const z = info > 0 ? score / Math.sqrt(info) : 0;
  if (!(Math.abs(z) >= minZ)) {
    return {
      break_even_knots: hKnots,
      direction: 'constant',
      z,
      evidence_knots: [{ at: meanE, offset: 0, plans: n, hits }],
    };
  }
  const sign = z > 0 ? 1 : -1;
  let gKnots = fitG(sign);
  for (let round = 0; round < 3; round++) {
    hKnots = fitH();
    gKnots = fitG(sign);
  }
  return {
    break_even_knots: hKnots,
    direction: gKnots.length > 1 ? (sign > 0 ? 'increasing' : 'decreasing') : 'constant',
    z,
    evidence_knots: gKnots,
  };
}

/** `h(q) + g(evidence)` of a geometry calibration: its log-odds for a plan (see {@link calibratePlan}). */
export function geometryLogOdds(geometry: GeometryCalibration, evidence: number, breakEven: number): number {
  return readKnots(geometry.break_even_knots, breakEven) + readKnots(geometry.evidence_knots, evidence);
}

/**
 * The forecast without the signal for a plan with break-even `breakEven` (see {@link breakEvenOf}):
 * `sigmoid(h(q) + mean g)`, the geometry's term with the evidence term at its training average (the
 * mean of `g`'s knot offsets weighted by their plans). What a call's {@link calibratePlan}
 * probability is compared with: the signal adds information for this plan only where its evidence
 * lifts the probability above it. The family's `base_rate` without a geometry part or with a null
 * or non-finite break-even.
 */
export function geometryBaseRate(curve: FamilyCalibration, breakEven: number | null): number {
  const geo = curve.geometry;
  if (geo === undefined || breakEven === null || !Number.isFinite(breakEven)) return curve.base_rate;
  let plans = 0;
  let sum = 0;
  for (const k of geo.evidence_knots) {
    plans += k.plans;
    sum += k.plans * k.offset;
  }
  return sigmoid(readKnots(geo.break_even_knots, breakEven) + (plans > 0 ? sum / plans : 0));
}

/**
 * The calibrated probability that a plan with break-even `breakEven` (see {@link breakEvenOf})
 * reaches target 1 before its stop, at raw evidence `evidence`: `sigmoid(h(q) + g(e))` on the
 * curve's {@link GeometryCalibration}. Without a geometry part, or with a null or non-finite
 * break-even, the evidence-only {@link calibrate}. Within (0, 1); for a fixed evidence,
 * non-decreasing in the break-even (a nearer target relative to the stop).
 */
export function calibratePlan(curve: FamilyCalibration, evidence: number, breakEven: number | null): number {
  const geo = curve.geometry;
  if (geo === undefined || breakEven === null || !Number.isFinite(breakEven)) return calibrate(curve, evidence);
  return sigmoid(geometryLogOdds(geo, evidence, breakEven));
}
