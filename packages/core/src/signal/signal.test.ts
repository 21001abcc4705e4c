import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { fearGreed } from '../feargreed/fear-greed.js';
import { REGIME_HISTORY, regime } from '../regime/regime.js';
import { filterSignals, type SignalRow, signalRow } from '../screeners/signal-list.js';
import { toColumns } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import { loadSharedSeries, sharedDataDir, sharedDataSkipReason } from '../testing/shared-data.js';
import type { Candle, Candles } from '../types.js';
import { calibrate, calibratePlan, type SignalCalibration, signalEvidence, timeframeFamily } from './calibration.js';
import { SIGNAL_CALIBRATION } from './calibration-table.js';
import { computeContext } from './context.js';
import {
  decideSignal,
  SIGNAL_FACTORS,
  SIGNAL_MIN_EDGE,
  SIGNAL_WEIGHTS,
  type Signal,
  type SignalFactor,
  type SignalFactorName,
  signal,
} from './signal.js';

function trend(n: number, step: number): Candle[] {
  const out: Candle[] = [];
  let p = 100;
  for (let i = 0; i < n; i++) {
    const o = p;
    p *= 1 + step + 0.01 * Math.sin(i * 1.3);
    out.push({ time: i, open: o, close: p, high: Math.max(o, p) * 1.003, low: Math.min(o, p) * 0.997, volume: 1000 });
  }
  return out;
}

/** Candles of an explicit length (260..600): a noisy walk whose drift changes every 20..80 bars. */
function longCandles(spacingMs = 3_600_000): fc.Arbitrary<Candle[]> {
  const bar = fc.record({
    step: fc.double({ min: -0.02, max: 0.02, noNaN: true }),
    up: fc.double({ min: 0, max: 0.01, noNaN: true }),
    down: fc.double({ min: 0, max: 0.01, noNaN: true }),
    volume: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e6, noNaN: true })),
  });
  const leg = fc.record({
    bars: fc.integer({ min: 20, max: 80 }),
    drift: fc.double({ min: -0.012, max: 0.012, noNaN: true }),
  });
  return fc
    .record({
      length: fc.integer({ min: 260, max: 600 }),
      start: fc.double({ min: 0.01, max: 50_000, noNaN: true }),
      segments: fc.array(leg, { minLength: 30, maxLength: 30 }),
      bars: fc.array(bar, { minLength: 600, maxLength: 600 }),
    })
    .map(({ length, start, segments, bars }) => {
      const out: Candle[] = [];
      let p = start;
      let l = 0;
      let left = segments[0].bars;
      for (let i = 0; i < length; i++) {
        if (left === 0) {
          l++;
          left = segments[l].bars;
        }
        left--;
        const b = bars[i];
        const open = p;
        p = Math.max(1e-6, p * (1 + segments[l].drift + b.step));
        out.push({
          time: 1_600_000_000_000 + i * spacingMs,
          open,
          close: p,
          high: Math.max(open, p) * (1 + b.up),
          low: Math.min(open, p) * (1 - b.down),
          volume: b.volume,
        });
      }
      return out;
    });
}

function sliceCandles(c: Candles, from: number, to: number): Candles {
  return {
    time: c.time.slice(from, to),
    open: c.open.slice(from, to),
    high: c.high.slice(from, to),
    low: c.low.slice(from, to),
    close: c.close.slice(from, to),
    volume: c.volume.slice(from, to),
  };
}

/** Every factor computed: the signal is past its warm-up. */
function pastWarmUp(s: Signal): boolean {
  return s.factors.every((f) => f.score !== null);
}

/** Weighted evidence on each side, with renormalised weights, and the coverage. */
function sides(factors: readonly SignalFactor[]): { bull: number; bear: number; coverage: number } {
  let bull = 0;
  let bear = 0;
  let coverage = 0;
  for (const f of factors) {
    if (f.score === null) continue;
    coverage += f.base_weight;
    if (f.score > 0) bull += f.weight * f.score;
    else bear -= f.weight * f.score;
  }
  return { bull, bear, coverage };
}

type Breakdown = Pick<SignalFactor, 'score' | 'base_weight'>[];

/** A breakdown with the default weights and these scores (null: absent). */
function breakdown(scores: readonly (number | null)[]): Breakdown {
  return SIGNAL_FACTORS.map((f, i) => ({ score: scores[i], base_weight: SIGNAL_WEIGHTS[f] }));
}

function scaled(factors: Breakdown, k: number): Breakdown {
  return factors.map((f) => ({ ...f, score: f.score === null ? null : f.score * k }));
}

const factorScore = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 8, arbitrary: fc.noBias(fc.integer({ min: -1000, max: 1000 })).map((x) => x / 1000) },
);

/**
 * Breakdowns whose composite is a hold: random scores whose stronger side is scaled down until
 * it exceeds the weaker one by at most `lean` (0..0.02) of the composite.
 */
function holdBreakdown(): fc.Arbitrary<Breakdown> {
  return fc
    .tuple(fc.array(factorScore, { minLength: 6, maxLength: 6 }), fc.integer({ min: 0, max: 20 }))
    .map(([scores, lean]) => {
      const b = breakdown(scores);
      let coverage = 0;
      for (const f of b) if (f.score !== null) coverage += f.base_weight;
      let bull = 0;
      let bear = 0;
      for (const f of b) {
        const e = f.score === null ? 0 : (f.base_weight / coverage) * f.score;
        if (e > 0) bull += e;
        else bear -= e;
      }
      const [strong, weak, sign] = bull >= bear ? [bull, bear, 1] : [bear, bull, -1];
      const k = strong > 0 ? Math.min(1, (weak + lean / 1000) / strong) : 1;
      return b.map((f) => (f.score !== null && Math.sign(f.score) === sign ? { ...f, score: f.score * k } : f));
    });
}

/** Breakdowns that lean one way: random scores shifted to one side (about one in six against it). */
function actionBreakdown(): fc.Arbitrary<Breakdown> {
  return fc
    .tuple(fc.array(factorScore, { minLength: 6, maxLength: 6 }), fc.boolean())
    .map(([scores, up]) => breakdown(scores.map((x) => (x === null ? null : (up ? 1 : -1) * (0.4 + 0.6 * x)))));
}

function mirrorColumns(c: Candles, k: number): Candles {
  const m = (a: Float64Array) => a.map((x) => k - x);
  return { time: c.time, volume: c.volume, open: m(c.open), close: m(c.close), high: m(c.low), low: m(c.high) };
}

describe('signal', () => {
  it('reads buy in a steady rise and sell in a steady fall, with the breakdown (no edge gate)', () => {
    // minEdge -1 publishes every call of the score: the raw reading of the factors.
    const up = signal(toColumns(trend(300, 0.006)), { minEdge: -1 });
    expect(up.action).toBe('buy');
    expect(up.factors.map((f) => f.name)).toEqual(SIGNAL_FACTORS);
    expect(up.factors.find((f) => f.name === 'trend')?.score).toBeGreaterThan(0.5);
    expect(up.raw_confidence).toBeGreaterThan(0.5);
    const down = signal(toColumns(trend(300, -0.006)), { minEdge: -1 });
    expect(down.action).toBe('sell');
    expect(down.score).toBeLessThan(-0.15);
  });

  it('publishes the calibrated probability: the base rate where the curve is flat, a hold when an edge is asked', () => {
    // 1 ms apart: intraday, with a flat curve at the base rate (no measured edge). The shipped
    // intraday curve was flat until the regime lost its vote (issue 38), so the flat curve is built here.
    const c = toColumns(trend(300, 0.006));
    // (evidence only: the shipped table's geometry part, session 14, is left out so the curve is flat)
    const { geometry: _geometry, ...evidenceOnly } = SIGNAL_CALIBRATION.families.intraday;
    // At 0.21, the intraday base rate this test was written with: the shipped one (0.51 since
    // session 14, fitted on plans before the reward minimums, most with a near target 1) lies above
    // this plan's break-even, and the test is about a rate below it.
    const intraday = {
      ...evidenceOnly,
      base_rate: 0.21,
      direction: 'constant' as const,
      knots: [{ evidence: 0.5, probability: 0.21, plans: 1 }],
    };
    const calibration: SignalCalibration = {
      provenance: SIGNAL_CALIBRATION.provenance,
      families: { daily: SIGNAL_CALIBRATION.families.daily, intraday },
    };
    const raw = signal(c, { minEdge: -1, calibration });
    expect(raw.confidence).toBeCloseTo(intraday.base_rate, 12);
    expect(raw.base_rate).toBe(intraday.base_rate);
    // By default a call at the base rate is published only when its plan's expected R after costs
    // clears 0 at the lower end of its interval; here the intraday base rate (about 21%) lies below
    // the plan's break-even, so the call holds for lack of edge and shows the plan it declined.
    const d = signal(c, { calibration });
    expect(raw.action).toBe('buy');
    expect(d).toMatchObject({ action: 'hold', reason: 'no_edge', score: raw.score });
    expect(d.declined_plan).toMatchObject({ direction: 'long', recommendation: false });
    expect(d.edge?.probability).toBeCloseTo(intraday.base_rate, 12);
    expect(d.edge?.expected_r_low).toBeLessThanOrEqual(0);
    expect(d.edge?.probability).toBeLessThan(d.edge?.break_even ?? 0);
    const gated = signal(c, { minEdge: 0.02, calibration });
    expect(gated).toMatchObject({ action: 'hold', reason: 'no_edge', score: raw.score });
    expect(gated.confidence).toBeCloseTo(1 - intraday.base_rate, 12);
    expect(gated.raw_confidence).toBe(raw.raw_confidence);
  });

  it('publishes a call only when its probability clears the base rate by minEdge', () => {
    const c = toColumns(trend(300, 0.006));
    // evidence only (the shipped geometry part, session 14, left out): the probability is the drawn one
    const { geometry: _geometry, ...evidenceOnly } = SIGNAL_CALIBRATION.families.intraday;
    const curve = (probability: number): SignalCalibration => ({
      provenance: SIGNAL_CALIBRATION.provenance,
      families: {
        daily: SIGNAL_CALIBRATION.families.daily,
        intraday: {
          ...evidenceOnly,
          base_rate: 0.2,
          knots: [{ evidence: 0.5, probability, plans: 1 }],
        },
      },
    });
    // The expected-R gate off (a floor no plan's R reaches), to test this gate alone.
    const off = { minExpectedR: -100 };
    expect(signal(c, { ...off, calibration: curve(0.25) })).toMatchObject({
      action: 'buy',
      confidence: 0.25,
      base_rate: 0.2,
    });
    expect(signal(c, { ...off, calibration: curve(0.19) })).toMatchObject({ action: 'hold', reason: 'no_edge' });
    expect(signal(c, { ...off, calibration: curve(0.21) })).toMatchObject({ action: 'buy', confidence: 0.21 });
    expect(signal(c, { ...off, calibration: curve(0.21), minEdge: 0.02 })).toMatchObject({
      action: 'hold',
      reason: 'no_edge',
    });
    expect(SIGNAL_MIN_EDGE).toBe(0);
  });

  it('holds with zero confidence and a reason when nothing can be computed', () => {
    const s = signal(toColumns(trend(1, 0)));
    expect(s).toMatchObject({ action: 'hold', score: 0, confidence: 0, reason: 'insufficient_data' });
    for (const f of s.factors) {
      if (f.name === 'breakout' || f.name === 'sentiment' || f.name === 'cycle_phase') continue;
      expect(f.score).toBeNull();
      expect(f.reason).toBe('insufficient_data');
    }
  });

  it('normalises the weights and renormalises over the factors present', () => {
    const c = toColumns(trend(120, 0.004));
    const s = signal(c, { weights: { trend: 2, momentum: 2, sentiment: 0, breakout: 0, risk: 0, cycle_phase: 0 } });
    expect(s.weights.trend).toBe(0.5);
    expect(s.weights.sentiment).toBe(0);
    const d = signal(c);
    expect(d.weights).toEqual(SIGNAL_WEIGHTS);
    const present = d.factors.filter((f) => f.score !== null);
    expect(present.reduce((a, f) => a + f.weight, 0)).toBeCloseTo(1, 12);
    expect(d.factors.reduce((a, f) => a + f.contribution, 0)).toBeCloseTo(d.score, 12);
  });

  it('accepts the Fear & Greed and regime it would compute', () => {
    const ctx = computeContext(toColumns(trend(200, 0.003)));
    expect(signal(ctx, { fearGreed: fearGreed(ctx), regime: regime(ctx) })).toEqual(signal(ctx));
    const withFunding = signal(ctx, { market: { funding: 0.0006 } });
    expect(withFunding.factors.find((f) => f.name === 'sentiment')?.inputs.fear_greed).toBe(
      fearGreed(ctx, { funding: 0.0006 }).score,
    );
  });

  it('has confidence in 0..1, score in -1..1, no look-ahead, and JSON-clean output (260..600 candles)', () => {
    const runs = 80;
    let reached = 0;
    fc.assert(
      fc.property(longCandles(), fc.nat(), (rows, cut) => {
        // A few as-of bars fall in the warm-up (0..219: the regime, the last factor, needs 220), most after it.
        const k = cut % 10 === 0 ? cut % REGIME_HISTORY : REGIME_HISTORY + (cut % (rows.length - REGIME_HISTORY));
        const full = computeContext(toColumns(rows));
        const s = signal(full, { asOf: k });
        if (pastWarmUp(s)) reached++;
        expect(s).toEqual(signal(toColumns(rows.slice(0, k + 1))));
        expect(s.confidence).toBeGreaterThanOrEqual(0);
        expect(s.confidence).toBeLessThanOrEqual(1);
        expect(Math.abs(s.score)).toBeLessThanOrEqual(1);
        for (const f of s.factors) if (f.score !== null) expect(Math.abs(f.score)).toBeLessThanOrEqual(1);
        const call = s.score > s.threshold ? 'buy' : s.score < -s.threshold ? 'sell' : 'hold';
        // a call held for its edge, or for its plan's reward after costs (issue 38), is a hold
        const held = s.reason === 'no_edge' || s.reason === 'poor_reward';
        expect(s.action).toBe(held ? 'hold' : call);
        if (held) expect(call).not.toBe('hold');
        if (s.reason === 'poor_reward') expect(s.declined_plan?.reason).toBe('poor_reward');
        if (s.reason !== 'insufficient_data') {
          // a call publishes its side's calibrated probability; a hold, 1 minus the leaning side's:
          // conditioned on the plan's break-even when the call was judged by a plan with a trade
          // (session 14), else from the evidence alone
          const ev = signalEvidence(s.factors);
          const curve = SIGNAL_CALIBRATION.families[timeframeFamily(full.candles.time, k)];
          const p =
            ev.side === null
              ? curve.base_rate
              : call !== 'hold' && s.edge !== null
                ? calibratePlan(curve, ev.evidence, s.edge.break_even)
                : calibrate(curve, ev.evidence);
          expect(s.confidence).toBeCloseTo(s.action === 'hold' ? 1 - p : p, 12);
          if (s.action !== 'hold') expect(p).toBeGreaterThanOrEqual(s.base_rate + SIGNAL_MIN_EDGE);
          const { bull, bear, coverage } = sides(s.factors);
          if (call === 'hold')
            expect(s.raw_confidence).toBeLessThanOrEqual(coverage * 2 * Math.min(bull, bear) + 1e-12);
          else expect(s.raw_confidence).toBeCloseTo(ev.evidence, 12);
        }
        expect(JSON.parse(JSON.stringify(s))).toEqual(s);
      }),
      { numRuns: runs },
    );
    expect(reached / runs, 'share of draws past the warm-up').toBeGreaterThanOrEqual(0.8);
  });

  it('is deterministic (260..600 candles)', () => {
    const runs = 20;
    let reached = 0;
    fc.assert(
      fc.property(longCandles(), (rows) => {
        const s = signal(toColumns(rows));
        if (pastWarmUp(s)) reached++;
        expect(signal(toColumns(rows))).toEqual(s);
      }),
      { numRuns: runs },
    );
    expect(reached / runs, 'share of draws past the warm-up').toBeGreaterThanOrEqual(0.8);
  });

  it('gives a hold from no evidence a low confidence (a hold at score 0.001 is not 0.99)', () => {
    const none = decideSignal(breakdown([0, 0, 0, 0, 0, 0]), 0.15);
    expect(none).toEqual({ action: 'hold', score: 0, confidence: 0 });
    const faint = decideSignal(breakdown([0.002, -0.001, 0.001, 0, 0.001, -0.002]), 0.15);
    expect(faint.action).toBe('hold');
    expect(faint.confidence).toBeLessThan(0.01);
    // Strong evidence both ways that cancels: a hold the factors argue for.
    const split = decideSignal(breakdown([0.8, 0.9, -0.8, -0.9, -0.9, -0.5]), 0.15);
    expect(split.action).toBe('hold');
    expect(split.confidence).toBeGreaterThan(0.5);
  });

  it("never raises a hold's confidence as every factor shrinks toward zero", () => {
    const runs = 200;
    let reached = 0;
    fc.assert(
      fc.property(holdBreakdown(), fc.double({ min: 0, max: 1, noNaN: true }), (factors, shrink) => {
        const a = decideSignal(factors, 0.15);
        const b = decideSignal(scaled(factors, shrink), 0.15);
        expect(a.action).toBe('hold');
        expect(b.action).toBe('hold');
        if (a.confidence > 0) reached++;
        for (const d of [a, b]) {
          expect(d.confidence).toBeGreaterThanOrEqual(0);
          expect(d.confidence).toBeLessThanOrEqual(1);
          expect(Math.abs(d.score)).toBeLessThanOrEqual(0.15);
        }
        expect(b.confidence).toBeLessThanOrEqual(a.confidence + 1e-12);
      }),
      { numRuns: runs },
    );
    expect(reached / runs, 'share of draws with a hold of some confidence').toBeGreaterThanOrEqual(0.8);
  });

  it("raises a buy's or sell's confidence with its evidence", () => {
    const runs = 200;
    let reached = 0;
    fc.assert(
      fc.property(actionBreakdown(), fc.double({ min: 1, max: 3, noNaN: true }), fc.nat(5), (factors, grow, pick) => {
        const a = decideSignal(factors, 0.15);
        if (a.action === 'hold') return;
        reached++;
        // Every factor stronger, as far as -1..1 allows.
        let top = 0;
        for (const f of factors) top = Math.max(top, Math.abs(f.score ?? 0));
        const b = decideSignal(scaled(factors, Math.min(grow, 1 / top)), 0.15);
        expect(b.action).toBe(a.action);
        expect(b.confidence).toBeGreaterThanOrEqual(a.confidence - 1e-12);
        // One factor moved toward the action.
        const side = a.action === 'buy' ? 1 : -1;
        const moved = factors.map((f, i) =>
          i === pick && f.score !== null ? { ...f, score: side * Math.min(1, side * f.score + 0.3) } : f,
        );
        const c = decideSignal(moved, 0.15);
        expect(c.action).toBe(a.action);
        expect(c.confidence).toBeGreaterThanOrEqual(a.confidence - 1e-12);
        for (const d of [a, b, c]) {
          expect(d.confidence).toBeGreaterThanOrEqual(0);
          expect(d.confidence).toBeLessThanOrEqual(1);
          expect(Math.abs(d.score)).toBeGreaterThan(0.15);
          expect(Math.abs(d.score)).toBeLessThanOrEqual(1);
        }
      }),
      { numRuns: runs },
    );
    expect(reached / runs, 'share of draws that are a buy or a sell').toBeGreaterThanOrEqual(0.8);
  });

  it('mirrors: p -> K - p turns a buy into a sell (sentiment aside)', () => {
    const weights: Partial<Record<SignalFactorName, number>> = { sentiment: 0 };
    const c = toColumns(trend(300, 0.006));
    const a = signal(c, { weights, minEdge: -1 });
    const b = signal(mirrorColumns(c, 2 * Math.max(...c.high)), { weights, minEdge: -1 });
    expect(a.action).toBe('buy');
    expect(b.action).toBe('sell');
    expect(b.score).toBeCloseTo(-a.score, 6);
  });

  it.skipIf(!sharedDataDir)(`mirrors on the daily series (skips when ${sharedDataSkipReason})`, () => {
    // Sentiment reads volatility, which p -> K - p changes; only exact ties may break symmetry.
    const weights: Partial<Record<SignalFactorName, number>> = { sentiment: 0 };
    for (const { name, candles } of loadSharedSeries().filter((s) => s.name.endsWith('-d1'))) {
      let k = 0;
      for (const h of candles.high) k = Math.max(k, h);
      const a = computeContext(candles);
      const b = computeContext(mirrorColumns(candles, 2 * k));
      let bars = 0;
      let differ = 0;
      const flip = { buy: 'sell', sell: 'buy', hold: 'hold' } as const;
      for (let i = 0; i < a.length; i += 5) {
        const x = signal(a, { asOf: i, weights });
        const y = signal(b, { asOf: i, weights });
        bars++;
        if (flip[x.action] !== y.action) differ++;
      }
      expect(differ / bars, name).toBeLessThan(0.02);
    }
  });

  it.skipIf(!sharedDataDir)(
    `publishes fewer calls on the real series, each clearing its base rate (skips when ${sharedDataSkipReason})`,
    () => {
      // One row per 500-candle window ending every 50 bars. Calibrated, a call's confidence is
      // its probability of reaching target 1 first (about 0.2..0.33 here) and a hold's is 1 minus
      // the leaning side's (0.67..0.8): by confidence alone every hold now ranks above every call,
      // so a list ranked by confidence must rank calls and holds apart.
      const rows: SignalRow[] = [];
      let calls = 0;
      let noEdge = 0;
      for (const { name, candles } of loadSharedSeries()) {
        for (let end = 260; end <= candles.close.length; end += 50) {
          const ctx = computeContext(sliceCandles(candles, Math.max(0, end - 500), end));
          const s = signal(ctx);
          if (s.action !== 'hold') {
            calls++;
            expect(s.confidence).toBeGreaterThanOrEqual(s.base_rate + SIGNAL_MIN_EDGE);
            expect(s.edge?.expected_r_low).toBeGreaterThan(0);
          }
          if (s.reason === 'no_edge') noEdge++;
          rows.push(signalRow(`${name}@${end}`, ctx, { zones: [] }));
        }
      }
      expect(rows.length).toBeGreaterThan(400);
      // Few calls survive the gates on these series (issue 40: almost only holds). Since session 14
      // (issue 38's plans by default, the probability conditioned on the plan's geometry) none does on
      // these 500-candle windows: a plan paying 1.5 R after costs reaches target 1 first about 10-20%
      // of the time, below its break-even (40% or more), so the expected-R gate holds it. Asserted as
      // measured (docs/decisions.md, "Issue 38 as the default"): a call published here again is a
      // change to look at.
      expect(calls).toBe(0);
      // Some calls of the score hold for lack of edge (the daily curve falls below its base rate).
      expect(noEdge).toBeGreaterThan(10);
      const ranked = filterSignals(rows);
      const holds = ranked.filter((r) => r.action === 'hold').map((r) => r.confidence);
      const called = ranked.filter((r) => r.action !== 'hold').map((r) => r.confidence);
      // (Session 14: a hold's confidence, 1 minus the leaning side's evidence-only probability, now
      // ranges down to about 0.36, as the refitted curves reach 0.64; with no call on these windows
      // the ranking of calls above holds is checked by the lines below only.)
      for (const h of holds) expect(h).toBeGreaterThan(0.3);
      expect(called.every((p) => p < Math.min(...holds))).toBe(true);
      // ... so the default ranking lists every call first: holds no longer crowd the top.
      const firstHold = ranked.findIndex((r) => r.action === 'hold');
      expect(ranked.slice(firstHold).every((r) => r.action === 'hold')).toBe(true);
      expect(firstHold).toBe(called.length);
    },
  );

  it('on daily series: a call clears base rate + minEdge, a no-edge hold had a call (260..600 candles)', () => {
    const calls = reach('a daily bar with a call of the score (published or held for no edge)');
    calls.assert(
      fc.property(longCandles(86_400_000), fc.nat(), (rows, cut) => {
        const ctx = computeContext(toColumns(rows));
        const n = rows.length;
        const start = 210 + (cut % (n - 210));
        // the first bar from `start` (wrapping past the end) whose score calls a side
        for (let j = 0; j < n - 210; j++) {
          const k = 210 + ((start - 210 + j) % (n - 210));
          const s = signal(ctx, { asOf: k });
          expect(timeframeFamily(ctx.candles.time, k)).toBe('daily');
          const raw = signal(ctx, { asOf: k, minEdge: -1 });
          if (raw.action === 'hold') {
            expect(s).toEqual(raw);
            continue;
          }
          calls.hit();
          if (s.action === 'hold')
            expect(s.reason).toBe(s.declined_plan?.reason === 'poor_reward' ? 'poor_reward' : 'no_edge');
          else expect(s.confidence).toBeGreaterThanOrEqual(s.base_rate + SIGNAL_MIN_EDGE);
          expect(s.confidence).toBeCloseTo(s.action === 'hold' ? 1 - raw.confidence : raw.confidence, 12);
          break;
        }
      }),
      { numRuns: 60 },
    );
  });

  it('rejects bad options with a typed error', () => {
    const c = toColumns(trend(30, 0));
    expect(() => signal(c, { weights: { trend: -1 } })).toThrow(InputError);
    expect(() => signal(c, { weights: { nope: 1 } as Partial<Record<SignalFactorName, number>> })).toThrow(InputError);
    expect(() =>
      signal(c, { weights: { trend: 0, momentum: 0, sentiment: 0, breakout: 0, risk: 0, cycle_phase: 0 } }),
    ).toThrow(InputError);
    expect(() => signal(c, { threshold: 0 })).toThrow(InputError);
    expect(() => signal(c, { threshold: 1 })).toThrow(InputError);
    expect(() => signal(c, { asOf: 99 })).toThrow(InputError);
    expect(() => signal(c, { minEdge: 2 })).toThrow(InputError);
    expect(() => signal(c, { calibration: {} as SignalCalibration })).toThrow(InputError);
  });
});
