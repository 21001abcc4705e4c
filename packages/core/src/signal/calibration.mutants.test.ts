// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// signalEvidence, timeframeFamily, Kendall's tau and fitCalibration recomputed from their
// definitions (tau and its z-score by counting pairs, the isotonic fit as the max-min of block
// means, compared as exact fractions, then the documented merging of small blocks) over drawn
// inputs with ties, and the edges pinned (a median spacing of exactly 20 hours, |z| exactly at
// minZ, exactly 2 * minPlans plans, a tau of 0, a curve without knots).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CalibrationSample,
  calibrate,
  type FamilyCalibration,
  fitCalibration,
  signalEvidence,
  timeframeFamily,
} from './calibration.js';

const HOUR = 3_600_000;

/** signalEvidence by its doc comments. */
function evidenceByHand(factors: { score: number | null; base_weight: number }[]) {
  const present = factors.filter((f) => f.score !== null);
  const coverage = present.reduce((a, f) => a + f.base_weight, 0);
  if (!(coverage > 0)) return { side: null, strength: 0, agreement: 0, coverage: 0, evidence: 0 };
  const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
  const parts = present.map((f) => (f.base_weight / coverage) * clamp(f.score as number, -1, 1));
  const bull = parts.filter((e) => e > 0).reduce((a, e) => a + e, 0);
  const bear = parts.filter((e) => e < 0).reduce((a, e) => a - e, 0);
  const score = clamp(bull - bear, -1, 1);
  if (score === 0) return { side: null, strength: 0, agreement: 0, coverage, evidence: 0 };
  const side = score > 0 ? 'buy' : 'sell';
  const strength = Math.min(1, Math.abs(score) / 0.5);
  const agreement = (score > 0 ? bull : bear) / (bull + bear);
  return { side, strength, agreement, coverage, evidence: clamp(coverage * (0.5 * strength + 0.5 * agreement), 0, 1) };
}

describe('signalEvidence, by its definition', () => {
  it('equals the documented formulas over drawn factor breakdowns', () => {
    let sides = 0;
    let draws = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            score: fc.option(fc.constantFrom(-1.5, -1, -0.5, -0.25, 0, 0.25, 0.5, 1, 1.5), { nil: null }),
            base_weight: fc.constantFrom(0, 0.125, 0.25, 0.5),
          }),
          { maxLength: 6 },
        ),
        (factors) => {
          const got = signalEvidence(factors);
          const want = evidenceByHand(factors);
          expect(got.side).toBe(want.side);
          for (const k of ['strength', 'agreement', 'coverage', 'evidence'] as const) {
            expect(got[k], k).toBeCloseTo(want[k], 12);
          }
          draws++;
          if (got.side !== null) sides++;
        },
      ),
      { numRuns: 400 },
    );
    expect(sides / draws).toBeGreaterThan(0.5);
  });

  it('gives all zeros without a weighted factor, and the coverage with a score of 0', () => {
    const zeros = { side: null, strength: 0, agreement: 0, coverage: 0, evidence: 0 };
    expect(signalEvidence([])).toEqual(zeros);
    expect(signalEvidence([{ score: null, base_weight: 0.5 }])).toEqual(zeros);
    expect(signalEvidence([{ score: 0.8, base_weight: 0 }])).toEqual(zeros);
    expect(
      signalEvidence([
        { score: 0.5, base_weight: 0.25 },
        { score: -0.5, base_weight: 0.25 },
      ]),
    ).toEqual({ ...zeros, coverage: 0.5 });
    // a buy: bull 0.75, bear 0.25, score 0.5, strength 1, agreement 0.75, evidence 1 * 0.875
    expect(
      signalEvidence([
        { score: 1, base_weight: 0.75 },
        { score: -1, base_weight: 0.25 },
      ]),
    ).toEqual({ side: 'buy', strength: 1, agreement: 0.75, coverage: 1, evidence: 0.875 });
  });
});

describe('timeframeFamily, by its definition', () => {
  /** The median (the upper one of an even count) of the last up to 20 gaps, against 20 hours. */
  function byHand(time: number[], i: number): 'daily' | 'intraday' {
    const gaps = time
      .slice(Math.max(0, i - 20), i + 1)
      .slice(1)
      .map((t, j) => t - time[Math.max(0, i - 20) + j]);
    if (gaps.length === 0) return 'daily';
    const sorted = [...gaps].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] >= 20 * HOUR ? 'daily' : 'intraday';
  }

  it('equals the median rule over drawn spacings', () => {
    let daily = 0;
    let draws = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(1, 4, 19, 20, 20, 24, 72), { minLength: 1, maxLength: 30 }),
        fc.nat(),
        (steps, at) => {
          const time = [1.6e12];
          for (const h of steps) time.push(time[time.length - 1] + h * HOUR);
          const i = at % time.length;
          const got = timeframeFamily(time, i);
          expect(got).toBe(byHand(time, i));
          draws++;
          if (got === 'daily') daily++;
        },
      ),
      { numRuns: 400 },
    );
    // Both outcomes must be reached often, nothing more: a ratio bounded on both sides failed by
    // chance (about 1 run in 100: the daily share is 0.749, measured over 200,000 draws of this
    // generator, and 0.8 was 2.3 standard deviations of a 400-draw share away). Over 400 draws a
    // daily share at or below 0.5, or an intraday share at or below 0.1, has a Chernoff bound of
    // exp(-400 KL) = exp(-57) and exp(-29) (about 1e-13): far below one failure in 10^6 runs.
    expect(daily / draws).toBeGreaterThan(0.5);
    expect((draws - daily) / draws).toBeGreaterThan(0.1);
  });

  it('reads exactly the last 20 gaps, and a median of exactly 20 hours as daily', () => {
    // 21 gaps: the oldest 1 hour, then 10 of a day and 10 of 1 hour, in alternation; with the
    // oldest, the 11th of 21 would be 1 hour
    const steps = [1, ...Array.from({ length: 20 }, (_, k) => (k % 2 === 0 ? 24 : 1))];
    const time = [0];
    for (const h of steps) time.push(time[time.length - 1] + h * HOUR);
    expect(timeframeFamily(time, 21)).toBe('daily'); // sorted, the 11th of 20 is a day
    expect(timeframeFamily([0, HOUR], 1)).toBe('intraday');
    expect(timeframeFamily([0, 20 * HOUR], 1)).toBe('daily');
    expect(timeframeFamily([0, 20 * HOUR - 1], 1)).toBe('intraday');
  });
});

/** S, tau-b (without ties in evidence) and z of Kendall's statistic, by counting pairs. */
function kendallByPairs(xs: readonly CalibrationSample[]): { tau: number; z: number } {
  const n = xs.length;
  let S = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      S += Math.sign(xs[i].evidence - xs[j].evidence) * Math.sign(Number(xs[i].hit) - Number(xs[j].hit));
    }
  }
  const hits = xs.filter((x) => x.hit).length;
  const misses = n - hits;
  const pairs = (n * (n - 1)) / 2;
  const tiedY = (hits * (hits - 1)) / 2 + (misses * (misses - 1)) / 2;
  const v = (t: number): number => t * (t - 1) * (2 * t + 5);
  const variance = (v(n) - v(hits) - v(misses)) / 18;
  const denom = pairs * (pairs - tiedY);
  return { tau: denom > 0 ? S / Math.sqrt(denom) : 0, z: variance > 0 ? S / Math.sqrt(variance) : 0 };
}

interface Block {
  w: number;
  y: number;
  e: number;
}

/**
 * fitCalibration by its doc comment: the isotonic fit in tau's direction, as the max over left ends
 * of the min over right ends of the block means (exact, with integer counts), blocks of equal fitted
 * level pooled; then the smallest block under minPlans (the first of equal ones) merged with the
 * neighbour of nearer level (the left one on a tie) until none is left or one block remains.
 */
function fitByHand(samples: readonly CalibrationSample[], minPlans = 150, minZ = 2): FamilyCalibration {
  const n = samples.length;
  const hits = samples.filter((x) => x.hit).length;
  const base = n > 0 ? hits / n : 0;
  const { tau, z } = kendallByPairs(samples);
  const mean = samples.reduce((a, x) => a + x.evidence, 0) / n;
  const constant: FamilyCalibration = {
    base_rate: base,
    plans: n,
    hits,
    direction: 'constant',
    tau,
    z,
    knots: n > 0 ? [{ evidence: mean, probability: base, plans: n }] : [],
  };
  if (Math.abs(z) < minZ || n < 2 * minPlans) return constant;
  const sign = tau > 0 ? 1 : -1;
  // one block per distinct evidence
  const values = [...new Set(samples.map((x) => x.evidence))].sort((a, b) => a - b);
  const raw: Block[] = values.map((v) => {
    const at = samples.filter((x) => x.evidence === v);
    return { w: at.length, y: at.filter((x) => x.hit).length, e: v * at.length };
  });
  // fitted level of block i (as the fraction y / w of sign-adjusted hits): max_a min_b mean(a..b)
  const m = raw.length;
  const ys = [0];
  const ws = [0];
  for (const b of raw) {
    ys.push(ys[ys.length - 1] + b.y);
    ws.push(ws[ws.length - 1] + b.w);
  }
  const frac = (a: number, b: number): [number, number] => {
    const y = ys[b + 1] - ys[a];
    const w = ws[b + 1] - ws[a];
    return [sign > 0 ? y : w - y, w];
  };
  const less = (p: [number, number], q: [number, number]): boolean => p[0] * q[1] < q[0] * p[1];
  const fitted: [number, number][] = [];
  for (let i = 0; i < m; i++) {
    let best: [number, number] | null = null;
    for (let a = 0; a <= i; a++) {
      let low: [number, number] | null = null;
      for (let b = i; b < m; b++) {
        const f = frac(a, b);
        if (low === null || less(f, low)) low = f;
      }
      if (low !== null && (best === null || less(best, low))) best = low;
    }
    fitted.push(best as [number, number]);
  }
  const blocks: Block[] = [];
  for (let i = 0; i < m; i++) {
    const same = i > 0 && !less(fitted[i], fitted[i - 1]) && !less(fitted[i - 1], fitted[i]);
    if (same) {
      const last = blocks[blocks.length - 1];
      blocks[blocks.length - 1] = { w: last.w + raw[i].w, y: last.y + raw[i].y, e: last.e + raw[i].e };
    } else blocks.push({ ...raw[i] });
  }
  const level = (b: Block): number => (sign * b.y) / b.w;
  while (blocks.length > 1) {
    const small = blocks.filter((b) => b.w < minPlans);
    if (small.length === 0) break;
    const fewest = Math.min(...small.map((b) => b.w));
    const k = blocks.findIndex((b) => b.w === fewest);
    const left = k > 0 ? Math.abs(level(blocks[k]) - level(blocks[k - 1])) : Number.POSITIVE_INFINITY;
    const right = k < blocks.length - 1 ? Math.abs(level(blocks[k + 1]) - level(blocks[k])) : Number.POSITIVE_INFINITY;
    const j = left <= right ? k - 1 : k;
    const [a, b] = [blocks[j], blocks[j + 1]];
    blocks.splice(j, 2, { w: a.w + b.w, y: a.y + b.y, e: a.e + b.e });
  }
  if (blocks.length === 1) return constant;
  return {
    ...constant,
    direction: sign > 0 ? 'increasing' : 'decreasing',
    knots: blocks.map((b) => ({ evidence: b.e / b.w, probability: b.y / b.w, plans: b.w })),
  };
}

function expectSameCurve(got: FamilyCalibration, want: FamilyCalibration): void {
  expect([got.direction, got.plans, got.hits, got.base_rate]).toEqual([
    want.direction,
    want.plans,
    want.hits,
    want.base_rate,
  ]);
  expect(got.tau).toBeCloseTo(want.tau, 12);
  expect(got.z).toBeCloseTo(want.z, 10);
  expect(got.knots.map((k) => [k.plans, k.probability])).toEqual(want.knots.map((k) => [k.plans, k.probability]));
  got.knots.forEach((k, i) => {
    expect(k.evidence).toBeCloseTo(want.knots[i].evidence, 12);
  });
}

/** Samples with evidence on a grid of 0.1 (many ties) or drawn freely, the outcome leaning with it. */
const samplesArb = fc
  .record({
    lean: fc.constantFrom(-1, 0, 1, 1),
    grid: fc.boolean(),
    draws: fc.array(fc.record({ u: fc.integer({ min: 0, max: 1000 }), r: fc.integer({ min: 0, max: 999 }) }), {
      minLength: 2,
      maxLength: 120,
      size: 'max',
    }),
  })
  .map(({ lean, grid, draws }) =>
    draws.map(({ u, r }): CalibrationSample => {
      const evidence = grid ? Math.round(u / 100) / 10 : u / 1000;
      return { evidence, hit: r / 1000 < 0.5 + 0.8 * lean * (evidence - 0.5) };
    }),
  );

describe("Kendall's tau and fitCalibration, by their definitions", () => {
  it('equal the pair counts and the isotonic fit over drawn samples, fitted curves reached', () => {
    const seen = { constant: 0, increasing: 0, decreasing: 0 };
    let multi = 0;
    fc.assert(
      fc.property(
        samplesArb,
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(0, 0.5, 1, 2),
        (samples, minPlans, minZ) => {
          const got = fitCalibration(samples, { minPlans, minZ });
          if (samples.length > 1) expectSameCurve(got, fitByHand(samples, minPlans, minZ));
          else expect(got).toEqual({ ...fitByHand(samples, minPlans, minZ), tau: 0, z: 0 });
          seen[got.direction]++;
          if (got.knots.length > 2) multi++;
        },
      ),
      { numRuns: 400 },
    );
    // about 35%, 25%, 40% and 55%
    expect(seen.increasing).toBeGreaterThan(80);
    expect(seen.decreasing).toBeGreaterThan(40);
    expect(seen.constant).toBeGreaterThan(80);
    expect(multi).toBeGreaterThan(120);
  });

  it('takes |z| exactly at minZ, and exactly 2 * minPlans plans, as enough', () => {
    const samples: CalibrationSample[] = Array.from({ length: 12 }, (_, k) => ({ evidence: k / 12, hit: k >= 6 }));
    const { z } = kendallByPairs(samples);
    expect(z).toBeGreaterThan(0);
    expect(fitCalibration(samples, { minPlans: 6, minZ: z }).direction).toBe('increasing');
    expect(fitCalibration(samples, { minPlans: 6, minZ: z * (1 + 1e-12) }).direction).toBe('constant');
    expect(fitCalibration(samples, { minPlans: 7, minZ: 0 }).direction).toBe('constant');
    expect(fitCalibration(samples, { minPlans: 1, minZ: 0 }).direction).toBe('increasing');
  });

  it('gives the constant curve, tau and z 0, for fewer than two samples', () => {
    const none = { base_rate: 0, plans: 0, hits: 0, direction: 'constant', tau: 0, z: 0, knots: [] };
    expect(fitCalibration([], { minPlans: 1, minZ: 0 })).toEqual(none);
    expect(fitCalibration([{ evidence: 0.3, hit: true }], { minPlans: 1, minZ: 0 })).toEqual({
      ...none,
      base_rate: 1,
      plans: 1,
      hits: 1,
      knots: [{ evidence: 0.3, probability: 1, plans: 1 }],
    });
  });

  it('fits a decreasing curve at a tau of 0 when minZ is 0', () => {
    // evidence 0, 1, 2, 3 with outcomes hit, miss, miss, hit: S = 0; fit downwards, the two inner
    // misses and the outer hits pool into one block
    const samples = [true, false, false, true].map((hit, k): CalibrationSample => ({ evidence: k, hit }));
    const curve = fitCalibration(samples, { minPlans: 1, minZ: 0 });
    expect([curve.tau, curve.z]).toEqual([0, 0]);
    expectSameCurve(curve, fitByHand(samples, 1, 0));
    expect(curve.direction).toBe('decreasing');
  });

  it('defaults to 150 plans per knot and a |z| of 2', () => {
    const samples: CalibrationSample[] = Array.from({ length: 400 }, (_, k) => ({
      evidence: k / 400,
      hit: k % 4 !== 0 && k > 100,
    }));
    expectSameCurve(fitCalibration(samples), fitByHand(samples, 150, 2));
    expect(fitCalibration(samples).knots.every((k) => k.plans >= 150)).toBe(true);
    expectSameCurve(fitCalibration(samples.slice(0, 299)), fitByHand(samples.slice(0, 299), 150, 2));
    expect(fitCalibration(samples.slice(0, 299)).direction).toBe('constant');
  });
});

describe('calibrate at its edges', () => {
  it('gives the base rate for a curve without knots', () => {
    const empty = fitCalibration([]);
    expect(calibrate(empty, 0.4)).toBe(0);
    expect(calibrate({ ...empty, base_rate: 0.35 }, 0.4)).toBe(0.35);
  });
});
