import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { buildPlan } from '../plan/plan.js';
import { simulatePlan } from '../simulation/simulate.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import {
  breakEvenOf,
  type CalibrationSample,
  calibrate,
  calibratePlan,
  type FamilyCalibration,
  fitCalibration,
  signalEvidence,
  TIMEFRAME_FAMILIES,
  type TimeframeFamily,
  timeframeFamily,
} from './calibration.js';
import { SIGNAL_CALIBRATION } from './calibration-table.js';
import { computeContext } from './context.js';
import { decideSignal, SIGNAL_FACTORS, SIGNAL_WEIGHTS } from './signal.js';

/** Checks that `curve` is monotone in its direction and within [0, 1] on a fine grid of evidence. */
function expectMonotone(curve: FamilyCalibration): void {
  let previous = calibrate(curve, -0.1);
  for (let e = -0.1; e <= 1.1; e += 0.005) {
    const p = calibrate(curve, e);
    expect(p).toBeGreaterThanOrEqual(0);
    expect(p).toBeLessThanOrEqual(1);
    if (curve.direction === 'increasing') expect(p).toBeGreaterThanOrEqual(previous - 1e-15);
    else if (curve.direction === 'decreasing') expect(p).toBeLessThanOrEqual(previous + 1e-15);
    else expect(p).toBe(curve.base_rate);
    previous = p;
  }
}

describe('calibration', () => {
  it('ships a frozen table per family, monotone and within [0, 1], with its provenance', () => {
    for (const family of TIMEFRAME_FAMILIES) {
      const curve = SIGNAL_CALIBRATION.families[family];
      expectMonotone(curve);
      expect(curve.plans).toBe(curve.knots.reduce((n, k) => n + k.plans, 0));
      expect(curve.base_rate).toBeCloseTo(curve.hits / curve.plans, 5);
      for (let j = 1; j < curve.knots.length; j++)
        expect(curve.knots[j].evidence).toBeGreaterThan(curve.knots[j - 1].evidence);
    }
    const p = SIGNAL_CALIBRATION.provenance;
    expect(p.files.map((f) => f.file)).toHaveLength(5);
    expect(p.fitted).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const family of TIMEFRAME_FAMILIES) {
      const inFamily = p.files.filter((f) => f.family === family);
      expect(inFamily.reduce((n, f) => n + f.plans, 0)).toBe(SIGNAL_CALIBRATION.families[family].plans);
    }
    expect(Object.isFrozen(SIGNAL_CALIBRATION.families.daily.knots[0])).toBe(true);
  });

  it('maps any evidence, in the fitted direction, within [0, 1] (fitted curves of 600..2000 plans)', () => {
    const shaped = reach('a fitted curve that is not constant');
    shaped.assert(
      fc.property(
        fc.integer({ min: 600, max: 2000 }),
        fc.double({ min: 0.05, max: 0.5, noNaN: true }),
        fc.double({ min: 0.25, max: 0.4, noNaN: true }),
        fc.boolean(),
        fc.integer(),
        (n, a, slope, up, seed) => {
          let s = seed | 0;
          const rnd = (): number => {
            s = (s + 0x6d2b79f5) | 0;
            let t = Math.imul(s ^ (s >>> 15), 1 | s);
            t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
            return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
          };
          const samples: CalibrationSample[] = [];
          for (let k = 0; k < n; k++) {
            const evidence = rnd();
            const p = a + (up ? slope : -slope) * (evidence - 0.5);
            samples.push({ evidence, hit: rnd() < p });
          }
          const curve = fitCalibration(samples);
          expectMonotone(curve);
          if (shaped.hitIf(curve.direction !== 'constant')) {
            expect(curve.direction).toBe(up ? 'increasing' : 'decreasing');
            for (const k of curve.knots) expect(k.plans).toBeGreaterThanOrEqual(150);
          }
          expect(curve.hits / curve.plans).toBeCloseTo(curve.base_rate, 12);
          expect(fitCalibration(samples)).toEqual(curve);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('is the constant base rate when evidence and outcome are unrelated', () => {
    const samples: CalibrationSample[] = [];
    for (let k = 0; k < 2000; k++) samples.push({ evidence: ((k * 7919) % 1000) / 1000, hit: k % 5 === 0 });
    const curve = fitCalibration(samples);
    expect(curve.direction).toBe('constant');
    expect(calibrate(curve, 0)).toBe(0.2);
    expect(calibrate(curve, 1)).toBe(0.2);
  });

  it("conditions on the plan geometry: a driftless walk's b / (a + b) is recovered, the evidence adds its lift", () => {
    // Plans whose outcome is a driftless walk's (P = break-even q), and a second population where the
    // evidence adds +1 log-odds above 0.5: the fit recovers q where the evidence is silent, finds the
    // evidence's direction, and is non-decreasing in q at any evidence.
    let seed = 7;
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const samples: CalibrationSample[] = [];
    for (let k = 0; k < 6000; k++) {
      const breakEven = 0.2 + 0.75 * rnd();
      const evidence = rnd();
      const lift = evidence > 0.5 ? 1 : 0;
      const p = 1 / (1 + Math.exp(-(Math.log(breakEven / (1 - breakEven)) + lift)));
      samples.push({ evidence, breakEven, hit: rnd() < p });
    }
    const curve = fitCalibration(samples);
    const geo = curve.geometry;
    expect(geo?.direction).toBe('increasing');
    for (const q of [0.3, 0.5, 0.7, 0.9]) {
      expect(calibratePlan(curve, 0.25, q)).toBeCloseTo(q, 1);
      const lifted = 1 / (1 + Math.exp(-(Math.log(q / (1 - q)) + 1)));
      expect(Math.abs(calibratePlan(curve, 0.75, q) - lifted)).toBeLessThan(0.07);
    }
    for (const e of [0, 0.4, 0.6, 1]) {
      let previous = 0;
      for (let q = 0; q <= 1; q += 0.01) {
        const p = calibratePlan(curve, e, q);
        expect(p).toBeGreaterThanOrEqual(previous - 1e-15);
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThan(1);
        previous = p;
      }
    }
    // without a break-even the evidence-only curve answers; without the samples' break-evens, no geometry
    expect(calibratePlan(curve, 0.3, null)).toBe(calibrate(curve, 0.3));
    expect(fitCalibration(samples.map(({ evidence, hit }) => ({ evidence, hit }))).geometry).toBeUndefined();
  });

  it('reads the timeframe family from the candle spacing', () => {
    const times = (step: number): Float64Array => Float64Array.from({ length: 40 }, (_, i) => 1.6e12 + i * step);
    expect(timeframeFamily(times(86_400_000), 39)).toBe('daily');
    expect(timeframeFamily(times(7 * 86_400_000), 39)).toBe('daily');
    expect(timeframeFamily(times(3_600_000), 39)).toBe('intraday');
    expect(timeframeFamily(times(60_000), 5)).toBe('intraday');
    expect(timeframeFamily(times(60_000), 0)).toBe('daily');
  });

  it("gives a call's raw confidence as its evidence", () => {
    const scores = [0.6, 0.4, -0.2, 0.1, 0.3, 0.5];
    const factors = SIGNAL_FACTORS.map((f, i) => ({ score: scores[i], base_weight: SIGNAL_WEIGHTS[f] }));
    const raw = decideSignal(factors, 0.15);
    const ev = signalEvidence(factors);
    expect(raw.action).toBe('buy');
    expect(ev.side).toBe('buy');
    expect(ev.evidence).toBeCloseTo(raw.confidence, 12);
    expect(signalEvidence(factors.map((f) => ({ ...f, score: null })))).toMatchObject({ side: null, evidence: 0 });
  });
});

interface Outcome {
  series: string;
  family: TimeframeFamily;
  train: boolean;
  evidence: number;
  hit: boolean;
  breakEven: number;
}

/**
 * The walk-forward of scripts/eval.mjs: every leaning analysis, its plan (the default one when it has
 * a trade, else the same geometry with the reward minimums off: the population the table is fitted
 * on, see its provenance), entered and closed.
 */
function walkForward(): Outcome[] {
  const out: Outcome[] = [];
  for (const { name, candles } of loadSharedSeries()) {
    const ctx = computeContext(candles);
    const n = candles.close.length;
    const family = timeframeFamily(candles.time, n - 1);
    const stride = name === 'crypto-m1' ? 2 : 1;
    for (let i = Math.min(210, Math.floor(n / 3)); i < n - 1; i += stride) {
      const a = analyze(ctx, { asOf: i });
      const ev = signalEvidence(a.signal.factors);
      if (ev.side === null) continue;
      const direction = ev.side === 'buy' ? 'long' : 'short';
      const levels = { ...a.levels, volume_profile: a.volume_profile };
      const gated = a.zone.direction === direction ? a.zone : buildPlan(candles, levels, { direction });
      const plan =
        gated.direction !== null
          ? gated
          : buildPlan(candles, levels, { direction, minRiskReward: 0, minNetRiskReward: -1e6 });
      if (plan.direction === null) continue;
      const { outcome } = simulatePlan(plan, candles, { fromIndex: i + 1 });
      if (outcome !== 'tp_hit' && outcome !== 'stopped_out' && outcome !== 'time_stopped') continue;
      out.push({
        series: name,
        family,
        train: i < Math.floor(0.7 * n),
        evidence: ev.evidence,
        hit: outcome === 'tp_hit',
        breakEven: breakEvenOf(plan) as number,
      });
    }
  }
  return out;
}

/** Reliability error over equal-count deciles of >= 50 plans, Brier score and the base rate's. */
function score(rows: { p: number; b: number; hit: boolean }[]): { reliability: number; brier: number; base: number } {
  const s = rows.map((r, k) => ({ ...r, k })).sort((x, y) => x.p - y.p || x.k - y.k);
  let err = 0;
  let deciles = 0;
  for (let d = 0; d < 10; d++) {
    const part = s.slice(Math.floor((d * s.length) / 10), Math.floor(((d + 1) * s.length) / 10));
    if (part.length < 50) continue;
    const p = part.reduce((a, r) => a + r.p, 0) / part.length;
    const y = part.reduce((a, r) => a + (r.hit ? 1 : 0), 0) / part.length;
    err += Math.abs(p - y);
    deciles++;
  }
  const brier = rows.reduce((a, r) => a + (r.p - (r.hit ? 1 : 0)) ** 2, 0) / rows.length;
  const base = rows.reduce((a, r) => a + (r.b - (r.hit ? 1 : 0)) ** 2, 0) / rows.length;
  return { reliability: err / deciles, brier, base };
}

describe.skipIf(!sharedDataDir)(`calibration out of sample (skips when ${sharedDataSkipReason})`, () => {
  let plans: Outcome[] = [];
  beforeAll(() => {
    plans = walkForward();
  }, 180_000);

  it('on the held-out 30% of each series: reliability error <= 5 points, Brier below the base rate', () => {
    expect(plans.length).toBeGreaterThan(5000);
    const table = SIGNAL_CALIBRATION.families;
    // the probability the signal gives a call with a plan: conditioned on the plan's geometry
    const rows = plans.map((r) => ({
      ...r,
      p: calibratePlan(table[r.family], r.evidence, r.breakEven),
      b: table[r.family].base_rate,
    }));
    const train = score(rows.filter((r) => r.train));
    const test = score(rows.filter((r) => !r.train));
    expect(train.reliability).toBeLessThanOrEqual(0.02);
    expect(test.reliability).toBeLessThanOrEqual(0.05);
    expect(test.brier).toBeLessThan(test.base);
    // the shipped table is the fit of the training part: refitting it gives the same curves
    for (const family of TIMEFRAME_FAMILIES) {
      const refit = fitCalibration(plans.filter((r) => r.train && r.family === family));
      expect(refit.direction).toBe(table[family].direction);
      expect(refit.plans).toBe(table[family].plans);
      expect(refit.base_rate).toBeCloseTo(table[family].base_rate, 5);
      expect(refit.geometry?.direction).toBe(table[family].geometry?.direction);
      expect(refit.geometry?.break_even_knots.map((k) => k.plans)).toEqual(
        table[family].geometry?.break_even_knots.map((k) => k.plans),
      );
    }
  });

  it('leaving one series out: Brier below the base rate, reliability error <= 5 points', () => {
    // The evidence-only curve missed the 5-point target here (8.1 points: series differ in their
    // base rate, which a fit on the other series cannot know). Conditioned on the plan's geometry
    // (issue 38) the probability carries what differs between plans, and the target is met
    // (2.8 points when fitted, docs/decisions.md "Issue 38 as the default"): asserted as the target.
    const rows: { p: number; b: number; hit: boolean }[] = [];
    for (const name of new Set(plans.map((r) => r.series))) {
      const curves = Object.fromEntries(
        TIMEFRAME_FAMILIES.map((f) => [f, fitCalibration(plans.filter((r) => r.series !== name && r.family === f))]),
      ) as Record<TimeframeFamily, FamilyCalibration>;
      for (const r of plans.filter((x) => x.series === name)) {
        rows.push({
          p: calibratePlan(curves[r.family], r.evidence, r.breakEven),
          b: curves[r.family].base_rate,
          hit: r.hit,
        });
      }
    }
    const loso = score(rows);
    expect(loso.brier).toBeLessThan(loso.base);
    expect(loso.reliability).toBeLessThanOrEqual(0.05);
  });
});
