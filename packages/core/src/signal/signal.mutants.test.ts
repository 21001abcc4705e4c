// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// signal rebuilt from its documentation (the six factor formulas, the renormalised composite, the
// raw action and evidence, the calibrated probability and the edge gate) over drawn series, with a
// calibration curve of the test's own (never the shipped table, which is refitted now and then),
// and the option checks pinned.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FearGreed } from '../feargreed/fear-greed.js';
import { fearGreed } from '../feargreed/fear-greed.js';
import { atr } from '../indicators/atr.js';
import { supportResistance } from '../levels/zones.js';
import { buildPlan } from '../plan/plan.js';
import { type Regime, type RegimePhase, regime } from '../regime/regime.js';
import { caughtInputError as caught } from '../testing/bad-input.js';
import { candleSeries, toColumns } from '../testing/props.js';
import type { Candles } from '../types.js';
import type { FamilyCalibration, SignalCalibration } from './calibration.js';
import { probabilityInterval } from './calibration-edge.js';
import { computeContext } from './context.js';
import { decideSignal, SIGNAL_FACTORS, SIGNAL_WEIGHTS, type SignalFactorName, signal } from './signal.js';

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const fin = (x: number) => Number.isFinite(x);
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** `x / y`, 0 when `y` is not positive (a flat series has an ATR and a deviation of 0). */
const dv = (x: number, y: number) => (y > 0 ? x / y : 0);
const orNull = (x: number) => (fin(x) ? x + 0 : null);

type Inputs = Record<string, number | string | null>;

/** The six factors of `signal` at bar `i` (score and inputs), by the formulas of its documentation. */
function factorsByHand(
  c: Candles,
  i: number,
  fg: FearGreed,
  rg: Regime,
): Record<SignalFactorName, { score: number | null; inputs: Inputs }> {
  const ctx = computeContext(c);
  const close = c.close[i];
  const a = ctx.atr(14)[i];
  const e20 = ctx.ema(20)[i];
  const e50 = ctx.ema(50)[i];
  const s200 = ctx.sma(200)[i];
  const adx = ctx.dmi(14).adx[i];
  const slope = i >= 10 ? dv(e50 - ctx.ema(50)[i - 10], a) : Number.NaN;
  let trend: number | null = null;
  if (fin(e20) && fin(e50) && fin(a)) {
    const parts = [clamp(dv(close - e50, 3 * a), -1, 1), clamp(dv(e20 - e50, 2 * a), -1, 1)];
    if (fin(slope)) parts.push(clamp(slope / 2, -1, 1));
    if (fin(s200)) parts.push(Math.sign(close - s200));
    // during the ADX warm-up the strength is the middle of its range
    const strength = fin(adx) ? 0.5 + 0.5 * clamp((adx - 15) / 20, 0, 1) : 0.75;
    trend = mean(parts) * strength;
  }
  const r = ctx.rsi(14)[i];
  const hist = ctx.macd().histogram[i];
  const k = ctx.stoch().k[i];
  const change = i >= 10 ? close - c.close[i - 10] : Number.NaN;
  let momentum: number | null = null;
  if (fin(r)) {
    const parts = [(r - 50) / 50];
    if (fin(hist) && fin(a)) parts.push(clamp(dv(hist, 0.5 * a), -1, 1));
    if (fin(k)) parts.push((k - 50) / 50);
    if (fin(change) && fin(a)) parts.push(clamp(dv(change, 3 * a), -1, 1));
    momentum = mean(parts);
  }
  const sentiment = fg.score === null ? null : (fg.score - 50) / 50;
  // the prior 20-bar channel and volume baseline (bars i-20..i-1)
  const prior = (col: ArrayLike<number>) => Array.from({ length: 20 }, (_, j) => col[i - 20 + j]);
  const upper = i >= 20 ? Math.max(...prior(c.high)) : Number.NaN;
  const lower = i >= 20 ? Math.min(...prior(c.low)) : Number.NaN;
  let z: number | null = null;
  let ratio: number | null = null;
  if (i >= 20) {
    const vols = prior(c.volume);
    const m = mean(vols);
    const sd = Math.sqrt(mean(vols.map((v) => (v - m) ** 2)));
    z = sd > 0 ? (c.volume[i] - m) / sd : null;
    ratio = m > 0 ? c.volume[i] / m : null;
  }
  const side = close > upper ? 'up' : close < lower ? 'down' : 'none';
  let breakout: number | null = null;
  if (fin(upper) && fin(lower) && fin(a)) {
    const confirmed = (z !== null && z >= 1) || (ratio !== null && ratio >= 1.5);
    const margin = side === 'up' ? close - upper : lower - close;
    const base = (a > 0 ? Math.min(1, 0.5 + margin / a) : 1) * (confirmed ? 1 : 0.5);
    breakout = side === 'up' ? base : side === 'down' ? -base : 0;
  }
  const m20 = ctx.sma(20)[i];
  const sd20 = ctx.stdDev(20)[i];
  const zz = fin(m20) && fin(sd20) ? dv(close - m20, sd20) : Number.NaN;
  let risk: number | null = null;
  if (fin(zz) && fin(r)) {
    const stretch = -Math.sign(zz) * clamp((Math.abs(zz) - 1) / 1.5, 0, 1);
    const extreme = r > 70 ? -(r - 70) / 30 : r < 30 ? (30 - r) / 30 : 0;
    risk = (stretch + extreme) / 2;
  }
  const st = rg.strength ?? 0;
  const cycle: Record<RegimePhase, number> = {
    markup: 0.5 + 0.5 * st,
    markdown: -(0.5 + 0.5 * st),
    accumulation: 0.3,
    distribution: -0.3,
    range: 0,
  };
  const bounded = (x: number | null) => (x === null ? null : clamp(x, -1, 1));
  return {
    trend: {
      score: bounded(trend),
      inputs: {
        close,
        ema_20: orNull(e20),
        ema_50: orNull(e50),
        sma_200: orNull(s200),
        slope_atr: orNull(slope),
        adx_14: orNull(adx),
      },
    },
    momentum: {
      score: bounded(momentum),
      inputs: { rsi_14: orNull(r), macd_histogram: orNull(hist), stoch_k: orNull(k), change_10: orNull(change) },
    },
    sentiment: { score: bounded(sentiment), inputs: { fear_greed: fg.score, fear_greed_zone: fg.zone } },
    breakout: {
      score: bounded(breakout),
      inputs: { channel_upper: orNull(upper), channel_lower: orNull(lower), side, volume_z: z, volume_ratio: ratio },
    },
    risk: {
      score: bounded(risk),
      inputs: { z_score_20: orNull(zz), rsi_14: orNull(r), atr_pct: fin(a) && close !== 0 ? (100 * a) / close : null },
    },
    cycle_phase: {
      score: rg.phase === null ? null : cycle[rg.phase],
      inputs: { phase: rg.phase, strength: rg.strength, bars_in_phase: rg.bars_in_phase },
    },
  };
}

/** A curve of the test's own: linear from 0.2 at evidence 0.2 to 0.8 at evidence 0.8, base rate 0.45. */
const CURVE: FamilyCalibration = {
  base_rate: 0.45,
  plans: 1000,
  hits: 450,
  direction: 'increasing',
  tau: 0.2,
  z: 5,
  knots: [
    { evidence: 0.2, probability: 0.2, plans: 300 },
    { evidence: 0.5, probability: 0.35, plans: 400 },
    { evidence: 0.8, probability: 0.8, plans: 300 },
  ],
};
const CALIBRATION = { provenance: {}, families: { intraday: CURVE, daily: CURVE } } as unknown as SignalCalibration;

/** The documented curve: linear between knots, flat beyond. */
function curveAt(e: number): number {
  const k = CURVE.knots;
  if (e <= k[0].evidence) return k[0].probability;
  for (let j = 1; j < k.length; j++) {
    if (e <= k[j].evidence) {
      return (
        k[j - 1].probability +
        ((e - k[j - 1].evidence) / (k[j].evidence - k[j - 1].evidence)) * (k[j].probability - k[j - 1].probability)
      );
    }
  }
  return k[k.length - 1].probability;
}

function expectClose(actual: number, expected: number, what: string): void {
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9);
}

describe('signal against its documentation', () => {
  const phases = fc.constantFrom<RegimePhase | null>('markup', 'markdown', 'accumulation', 'distribution', null);
  const weight = fc.constantFrom(0, 0.5, 1, 3);

  it('rebuilds the factors, the composite, the raw evidence and the calibrated confidence', () => {
    fc.assert(
      fc.property(
        candleSeries(1, 260),
        fc.nat(),
        fc.record({
          fg: fc.option(fc.integer({ min: 0, max: 100 })),
          phase: phases,
          strength: fc.option(fc.integer({ min: 0, max: 100 }).map((x) => x / 100)),
          weights: fc.option(fc.tuple(weight, weight, weight, weight, weight, weight)),
          threshold: fc.constantFrom(undefined, 0.05, 0.15, 0.4),
          minEdge: fc.constantFrom(undefined, -1, 0, 0.1),
        }),
        (rows, cut, o) => {
          const c = toColumns(rows);
          const i = Math.max(0, rows.length - 1 - (cut % 40));
          const fg: FearGreed = { ...fearGreed(c, { asOf: i }), score: o.fg };
          const rg: Regime = { ...regime(c, { asOf: i }), phase: o.phase, strength: o.strength };
          const given =
            o.weights === null ? undefined : Object.fromEntries(SIGNAL_FACTORS.map((f, j) => [f, o.weights?.[j]]));
          if (given !== undefined && Object.values(given).every((w) => w === 0)) given.trend = 1;
          const sig = signal(c, {
            asOf: i,
            fearGreed: fg,
            regime: rg,
            calibration: CALIBRATION,
            weights: given,
            threshold: o.threshold,
            minEdge: o.minEdge,
          });
          const byHand = factorsByHand(c, i, fg, rg);
          const scores = Object.fromEntries(SIGNAL_FACTORS.map((f) => [f, byHand[f].score])) as Record<
            SignalFactorName,
            number | null
          >;
          // weights: the defaults overridden by the given ones, normalised to sum 1
          const w = { ...SIGNAL_WEIGHTS, ...given };
          const total = SIGNAL_FACTORS.reduce((s, f) => s + w[f], 0);
          const present = SIGNAL_FACTORS.filter((f) => scores[f] !== null);
          const coverage = present.reduce((s, f) => s + w[f] / total, 0);
          for (const [j, f] of SIGNAL_FACTORS.entries()) {
            const got = sig.factors[j];
            expect(got.name).toBe(f);
            expect(Object.keys(got.inputs), f).toEqual(Object.keys(byHand[f].inputs));
            for (const [key, want] of Object.entries(byHand[f].inputs)) {
              const have = got.inputs[key];
              if (typeof want === 'number' && typeof have === 'number') expectClose(have, want, `${f}.inputs.${key}`);
              else expect(have, `${f}.inputs.${key}`).toEqual(want);
            }
            expectClose(sig.weights[f], w[f] / total, `weights.${f}`);
            expectClose(got.base_weight, w[f] / total, `${f}.base_weight`);
            const s = scores[f];
            if (s === null) {
              expect([got.score, got.weight, got.contribution, got.reason], f).toEqual([
                null,
                0,
                0,
                'insufficient_data',
              ]);
            } else {
              expect(got.reason, f).toBeUndefined();
              expectClose(got.score ?? Number.NaN, s, `${f}.score`);
              // renormalised over the factors present (none weighs anything: 0)
              const renormalised = coverage > 0 ? w[f] / total / coverage : 0;
              expectClose(got.weight, renormalised, `${f}.weight`);
              expectClose(got.contribution, renormalised * s, `${f}.contribution`);
            }
          }
          const threshold = o.threshold ?? 0.15;
          expect(sig.threshold).toBe(threshold);
          expect(sig.base_rate).toBe(CURVE.base_rate);
          if (present.length === 0 || !(coverage > 0)) {
            expect(sig).toMatchObject({ action: 'hold', score: 0, confidence: 0, raw_confidence: 0 });
            expect(sig.reason).toBe('insufficient_data');
            return;
          }
          let bull = 0;
          let bear = 0;
          for (const f of present) {
            const e = (w[f] / total / coverage) * (scores[f] as number);
            if (e > 0) bull += e;
            else bear -= e;
          }
          const score = clamp(bull - bear, -1, 1);
          expectClose(sig.score, score, 'score');
          // a score within 1e-12 of a bound could round either way
          if (Math.abs(Math.abs(score) - threshold) < 1e-12) return;
          const action = score > threshold ? 'buy' : score < -threshold ? 'sell' : 'hold';
          const agreement = (x: 'buy' | 'sell') => (x === 'buy' ? bull : bear) / (bull + bear);
          const evidence = (x: 'buy' | 'sell') =>
            clamp(coverage * (0.5 * Math.min(1, Math.abs(score) / 0.5) + 0.5 * agreement(x)), 0, 1);
          const rawConfidence =
            action === 'hold'
              ? clamp(coverage * Math.max(0, 2 * Math.min(bull, bear) - Math.abs(score)), 0, 1)
              : evidence(action);
          expectClose(sig.raw_confidence, rawConfidence, 'raw_confidence');
          const lean = score > 0 ? 'buy' : score < 0 ? 'sell' : null;
          const p = lean === null ? CURVE.base_rate : curveAt(evidence(lean));
          const minEdge = o.minEdge ?? 0;
          if (action !== 'hold' && Math.abs(p - (CURVE.base_rate + minEdge)) < 1e-12) return;
          // The call's plan, and its expected R after costs: p * win - (1 - p) * loss at the lower
          // end of p's interval, win = |target 1 - entry| / risk - cost / risk, loss = 1 + cost / risk.
          let lowR: number | null = null;
          if (action !== 'hold') {
            const levels = supportResistance(c, { asOf: i, atr: atr(c, { period: 14 }) });
            const plan = buildPlan(c, levels, { direction: action === 'buy' ? 'long' : 'short' });
            const { entry_price: entry, stop_loss: stop, cost_pct: cost } = plan;
            if (plan.direction !== null && entry !== null && stop !== null && cost !== null) {
              const risk = Math.abs(entry - stop);
              const costR = ((cost / 100) * entry) / risk;
              const win = Math.abs(plan.take_profits[0].price - entry) / risk - costR;
              const low = probabilityInterval(CURVE, evidence(action), 0.9).low;
              lowR = low * win - (1 - low) * (1 + costR);
              expect(sig.edge).not.toBeNull();
              expectClose(sig.edge?.expected_r_low ?? Number.NaN, lowR, 'expected_r_low');
              expectClose(sig.edge?.expected_r ?? Number.NaN, p * win - (1 - p) * (1 + costR), 'expected_r');
              expectClose(
                sig.edge?.break_even ?? Number.NaN,
                win > 0 ? (1 + costR) / (win + 1 + costR) : 1,
                'break_even',
              );
            } else {
              expect(sig.edge).toBeNull();
            }
            if (lowR !== null && Math.abs(lowR) < 1e-12) return;
          } else {
            expect([sig.edge, sig.declined_plan]).toEqual([null, null]);
          }
          const published =
            action !== 'hold' && (minEdge === -1 || (p >= CURVE.base_rate + minEdge && lowR !== null && lowR > 0));
          expect(sig.action).toBe(published ? action : 'hold');
          expectClose(sig.confidence, published ? p : 1 - p, 'confidence');
          // a call held because its plan pays too little after costs says so (issue 38); any other held call, no_edge
          const heldFor = sig.declined_plan?.reason === 'poor_reward' ? 'poor_reward' : 'no_edge';
          expect(sig.reason).toBe(action !== 'hold' && !published ? heldFor : undefined);
          expect(sig.declined_plan === null).toBe(action === 'hold' || published);
          if (sig.declined_plan !== null) expect(sig.declined_plan.recommendation).toBe(false);
        },
      ),
      // no shrinking: a failure is reported at once (a mutation run would spend its time shrinking)
      { numRuns: 120, endOnFailure: true },
    );
  });
});

describe('signal options', () => {
  const c = toColumns(
    Array.from({ length: 80 }, (_, i) => {
      const p = 100 + i / 2 + 3 * Math.sin(i / 4);
      return { time: i * 86_400_000, open: p - 0.2, high: p + 1, low: p - 1, close: p, volume: 1000 + (i % 5) * 50 };
    }),
  );

  it('names the bad weight, threshold, minEdge and calibration', () => {
    const e = (o: object) => caught(() => signal(c, o as never));
    expect([e({ weights: 3 }).code, e({ weights: 3 }).field, e({ weights: 3 }).message]).toEqual([
      'invalid_option',
      'weights',
      'weights must be an object of factor weights',
    ]);
    expect(e({ weights: null }).message).toBe('weights must be an object of factor weights');
    const notFactor = e({ weights: { volume: 1 } });
    expect([notFactor.code, notFactor.field, notFactor.message]).toEqual([
      'invalid_option',
      'weights',
      'weights.volume is not a factor (trend, momentum, sentiment, breakout, risk, cycle_phase)',
    ]);
    expect(e({ weights: { trend: -1 } }).field).toBe('weights.trend');
    const zero = e({ weights: { trend: 0, momentum: 0, sentiment: 0, breakout: 0, risk: 0, cycle_phase: 0 } });
    expect([zero.code, zero.field, zero.message]).toEqual([
      'invalid_option',
      'weights',
      'at least one factor weight must be positive',
    ]);
    expect(e({ threshold: 0 }).field).toBe('threshold');
    expect(e({ threshold: 1 }).field).toBe('threshold');
    expect(e({ minEdge: 1.5 }).field).toBe('minEdge');
    expect(e({ minEdge: -1.5 }).field).toBe('minEdge');
    const cal = e({ calibration: { families: {} } });
    expect([cal.code, cal.field, cal.message]).toEqual([
      'invalid_option',
      'calibration',
      'calibration must be a SignalCalibration (see fitCalibration)',
    ]);
    expect(e({ calibration: { families: { daily: { knots: 1, base_rate: 0.5 } } } }).field).toBe('calibration');
    expect(e({ calibration: { families: { daily: { knots: [], base_rate: Number.NaN } } } }).field).toBe('calibration');
    // the bounds themselves are valid, and an undefined weight keeps its default
    expect(() => signal(c, { threshold: 0.999, minEdge: -1, calibration: CALIBRATION })).not.toThrow();
    expect(() => signal(c, { minEdge: 1, calibration: CALIBRATION })).not.toThrow();
    expect(signal(c, { weights: { trend: undefined }, calibration: CALIBRATION }).weights).toEqual(SIGNAL_WEIGHTS);
  });
});

describe('signal at its edges', () => {
  it('holds at a score exactly on the threshold, and without any weighted factor', () => {
    const f = (score: number | null, base_weight = 1) => ({ score, base_weight });
    expect(decideSignal([f(0.15)], 0.15).action).toBe('hold');
    expect(decideSignal([f(-0.15)], 0.15).action).toBe('hold');
    expect(decideSignal([f(0.1501)], 0.15).action).toBe('buy');
    expect(decideSignal([f(-0.1501)], 0.15).action).toBe('sell');
    for (const none of [[], [f(null)], [f(0.5, 0)]]) {
      expect(decideSignal(none, 0.15)).toEqual({ action: 'hold', score: 0, confidence: 0 });
    }
  });

  it('reads the base rate, not the curve, when the score leans to no side', () => {
    const c = toColumns(
      Array.from({ length: 80 }, (_, i) => {
        const p = 100 + i / 2;
        return { time: i * 86_400_000, open: p, high: p + 1, low: p - 1, close: p, volume: 1000 };
      }),
    );
    const only = Object.fromEntries(SIGNAL_FACTORS.map((f) => [f, f === 'sentiment' ? 1 : 0]));
    const sig = signal(c, {
      weights: only,
      fearGreed: { ...fearGreed(c), score: 50 },
      calibration: CALIBRATION,
    });
    expect([sig.action, sig.score]).toEqual(['hold', 0]);
    expectClose(sig.confidence, 1 - CURVE.base_rate, 'confidence');
  });
});

describe('signal factors on hand-built series', () => {
  const DAYMS = 86_400_000;
  const factor = (c: Candles, name: SignalFactorName) =>
    signal(c, { calibration: CALIBRATION }).factors.find((f) => f.name === name);

  /** 20 quiet bars (99..101, close 100, volumes `vol(i)`), then one bar closing at `close` on `volume`. */
  function breakout(close: number, volume: number, vol: (i: number) => number): Candles {
    const rows = Array.from({ length: 20 }, (_, i) => ({
      time: i * DAYMS,
      open: 100,
      high: 101,
      low: 99,
      close: 100,
      volume: vol(i),
    }));
    rows.push({
      time: 20 * DAYMS,
      open: 100,
      high: Math.max(100, close) + 1,
      low: Math.min(100, close) - 1,
      close,
      volume,
    });
    return toColumns(rows);
  }
  const spread = (i: number) => (i % 2 === 0 ? 90 : 110);

  it('scores a breakout beyond the prior channel by its margin, halved without volume confirmation', () => {
    for (const [close, volume, vol, confirmed] of [
      [103, 110, spread, true], // z exactly 1
      [103, 109, spread, false],
      [97, 110, spread, true],
      [103, 150, () => 100, true], // no spread: ratio exactly 1.5
      [103, 149, () => 100, false],
      [97, 149, () => 100, false],
    ] as const) {
      const c = breakout(close, volume, vol);
      const a = computeContext(c).atr(14)[20];
      const margin = close > 101 ? close - 101 : 99 - close;
      const size = Math.min(1, 0.5 + margin / a) * (confirmed ? 1 : 0.5);
      const f = factor(c, 'breakout');
      expectClose(f?.score ?? Number.NaN, close > 101 ? size : -size, `${close} ${volume}`);
      expect(f?.inputs.side).toBe(close > 101 ? 'up' : 'down');
    }
    // the first bar with 20 prior volumes has volume statistics
    expect(factor(breakout(103, 110, spread), 'breakout')?.inputs).toMatchObject({ volume_z: 1, volume_ratio: 1.1 });
    // without volume: no z-score and no ratio, so no confirmation
    const dry = factor(
      breakout(103, 0, () => 0),
      'breakout',
    );
    expect(dry?.inputs).toMatchObject({ volume_z: null, volume_ratio: null });
    expectClose(
      dry?.score ?? Number.NaN,
      0.5 * Math.min(1, 0.5 + 2 / computeContext(breakout(103, 0, () => 0)).atr(14)[20]),
      'dry',
    );
  });

  it('reads a close on its 200-bar average as neither side of it', () => {
    const flat = toColumns(
      Array.from({ length: 210 }, (_, i) => ({ time: i * DAYMS, open: 50, high: 50, low: 50, close: 50, volume: 1 })),
    );
    expect(factor(flat, 'trend')?.score).toBe(0);
  });

  it('leaves out what is still warming up (14 to 19 bars)', () => {
    for (const n of [15, 16, 17, 18, 19, 20]) {
      const rows = Array.from({ length: n }, (_, i) => {
        const p = 100 - i + 3 * Math.sin(i);
        return { time: i * DAYMS, open: p + 0.5, high: p + 2, low: p - 2, close: p, volume: 100 + i };
      });
      const c = toColumns(rows);
      const fg = fearGreed(c);
      const rg = regime(c);
      const sig = signal(c, { calibration: CALIBRATION, fearGreed: fg, regime: rg });
      const want = factorsByHand(c, n - 1, fg, rg);
      for (const f of sig.factors) {
        const w = want[f.name].score;
        if (w === null) expect(f.score, `${n} ${f.name}`).toBeNull();
        else expectClose(f.score ?? Number.NaN, w, `${n} ${f.name}`);
      }
    }
  });
});
