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
 * plans merge with a neighbour; with no significant tau the curve is the base rate. Pure and
 * deterministic: the same samples give the same curve.
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
  const constant = (): FamilyCalibration => ({
    base_rate: base,
    plans: n,
    hits,
    direction: 'constant',
    tau,
    z,
    knots: n > 0 ? [{ evidence: samples.reduce((e, x) => e + x.evidence, 0) / n, probability: base, plans: n }] : [],
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
