import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.js';
import { overviewFacts } from '../overview/facts.js';
import { OVERVIEW_LOCALES, renderOverview } from '../overview/render.js';
import type { TradePlan } from '../plan/plan.js';
import { toColumns, trendingCandleSeries } from '../testing/props.js';
import { reach } from '../testing/reach.js';
import type { FamilyCalibration, SignalCalibration } from './calibration.js';
import { betaCdf, betaQuantile, EDGE_INTERVAL_LEVEL, planEdge, probabilityInterval } from './calibration-edge.js';
import { SIGNAL_CALIBRATION } from './calibration-table.js';
import { computeContext } from './context.js';
import { signal } from './signal.js';

describe('betaCdf and betaQuantile', () => {
  it('match closed forms: uniform, Beta(2, 3) and the arcsine law Beta(1/2, 1/2)', () => {
    for (const x of [0.001, 0.1, 0.25, 0.5, 0.77, 0.999]) {
      expect(betaCdf(x, 1, 1)).toBeCloseTo(x, 12);
      // Beta(2, 3): 6x^2 - 8x^3 + 3x^4
      expect(betaCdf(x, 2, 3)).toBeCloseTo(6 * x ** 2 - 8 * x ** 3 + 3 * x ** 4, 12);
      expect(betaCdf(x, 0.5, 0.5)).toBeCloseTo((2 / Math.PI) * Math.asin(Math.sqrt(x)), 10);
    }
    expect([betaCdf(0, 2, 2), betaCdf(1, 2, 2), betaCdf(-1, 2, 2), betaCdf(2, 2, 2)]).toEqual([0, 1, 0, 1]);
  });

  it('inverts each other, with the median of a symmetric law at 1/2', () => {
    const inside = reach('a quantile strictly inside (0, 1)');
    inside.assert(
      fc.property(
        fc.double({ min: 0.5, max: 3000, noNaN: true }),
        fc.double({ min: 0.5, max: 3000, noNaN: true }),
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        (a, b, q) => {
          const x = betaQuantile(q, a, b);
          expect(betaCdf(x, a, b)).toBeCloseTo(q, 6);
          inside.hitIf(x > 0 && x < 1);
        },
      ),
    );
    expect(betaQuantile(0.5, 40, 40)).toBeCloseTo(0.5, 10);
  });
});

const curveOf = (knots: FamilyCalibration['knots']): FamilyCalibration => ({
  base_rate: 0.2,
  plans: knots.reduce((n, k) => n + k.plans, 0),
  hits: 0,
  direction: 'increasing',
  tau: 0.1,
  z: 3,
  knots,
});

describe('probabilityInterval', () => {
  it('is the Jeffreys posterior of a knot: Beta(p n + 1/2, (1 - p) n + 1/2) quantiles', () => {
    const curve = curveOf([{ evidence: 0.5, probability: 0.25, plans: 400 }]);
    const i = probabilityInterval(curve, 0.3);
    expect(i).toMatchObject({ probability: 0.25, plans: 400, level: EDGE_INTERVAL_LEVEL });
    expect(betaCdf(i.low, 100.5, 300.5)).toBeCloseTo(0.05, 9);
    expect(betaCdf(i.high, 100.5, 300.5)).toBeCloseTo(0.95, 9);
    // normal approximation: +-1.645 standard errors
    const se = Math.sqrt((0.25 * 0.75) / 400);
    expect(i.low).toBeCloseTo(0.25 - 1.645 * se, 2);
    expect(i.high).toBeCloseTo(0.25 + 1.645 * se, 2);
  });

  it('contains the probability, narrows with more plans and widens with the level', () => {
    const ran = reach('a probability strictly inside its interval');
    ran.assert(
      fc.property(
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        fc.integer({ min: 1, max: 5000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0.5, max: 0.99, noNaN: true }),
        (p, plans, e, level) => {
          const one = probabilityInterval(curveOf([{ evidence: 0.5, probability: p, plans }]), e, level);
          const more = probabilityInterval(curveOf([{ evidence: 0.5, probability: p, plans: plans * 4 }]), e, level);
          const wider = probabilityInterval(curveOf([{ evidence: 0.5, probability: p, plans }]), e, (1 + level) / 2);
          expect(one.low).toBeLessThanOrEqual(p);
          expect(one.high).toBeGreaterThanOrEqual(p);
          expect(one.low).toBeGreaterThanOrEqual(0);
          expect(one.high).toBeLessThanOrEqual(1);
          expect(more.high - more.low).toBeLessThan(one.high - one.low);
          expect(wider.high - wider.low).toBeGreaterThan(one.high - one.low);
          ran.hitIf(one.low < p && p < one.high);
        },
      ),
    );
  });

  it('between two knots rests on the effective count of the mix, no more than both knots hold', () => {
    const curve = curveOf([
      { evidence: 0.2, probability: 0.3, plans: 200 },
      { evidence: 0.6, probability: 0.2, plans: 600 },
    ]);
    const mid = probabilityInterval(curve, 0.4);
    expect(mid.probability).toBeCloseTo(0.25, 12);
    // var = 0.25 * 0.3 * 0.7 / 200 + 0.25 * 0.2 * 0.8 / 600
    const v = (0.25 * 0.21) / 200 + (0.25 * 0.16) / 600;
    expect(mid.plans).toBeCloseTo((0.25 * 0.75) / v, 9);
    expect(mid.plans).toBeLessThanOrEqual(800);
    expect(probabilityInterval(curve, 0).plans).toBe(200);
    expect(probabilityInterval(curve, 1).plans).toBe(600);
    // no knots: the base rate under the bare prior, an interval that rules nothing out
    const none = probabilityInterval(curveOf([]), 0.5);
    expect(none.probability).toBe(0.2);
    expect(none.low).toBeLessThan(0.01);
    expect(none.high).toBeGreaterThan(0.9);
  });
});

function longPlan(entry: number, stop: number, target: number, cost: number): TradePlan {
  return {
    direction: 'long',
    bias: 'long',
    reason: null,
    published_index: 0,
    published_time: 0,
    mark: entry,
    atr: 1,
    entry_type: 'market',
    entry_zone: { low: entry - 0.5, high: entry },
    entry_price: entry,
    invalidation: stop + 0.2,
    stop_loss: stop,
    take_profits: [{ price: target, size_pct: 100, risk_reward: 0, risk_reward_net: 0 }],
    risk_pct: 0,
    cost_pct: cost,
    horizon_bars: 10,
    entry_window_bars: 5,
  };
}

describe('planEdge', () => {
  it("is p * win - (1 - p) * loss in the simulation's R, zero at the break-even", () => {
    const plan = longPlan(100, 95, 110, 0.2);
    const costR = (0.2 / 100) * (100 / 5);
    const e = planEdge(plan, { probability: 0.4, low: 0.3, high: 0.5, plans: 300, level: 0.9 });
    if (e === null) throw new Error('a plan with a trade has an edge');
    expect(e.win_r).toBeCloseTo(2 - costR, 12);
    expect(e.loss_r).toBeCloseTo(1 + costR, 12);
    expect(e.expected_r).toBeCloseTo(0.4 * (2 - costR) - 0.6 * (1 + costR), 12);
    expect(e.expected_r_low).toBeCloseTo(0.3 * (2 - costR) - 0.7 * (1 + costR), 12);
    expect(e.expected_r_high).toBeCloseTo(0.5 * (2 - costR) - 0.5 * (1 + costR), 12);
    const at = planEdge(plan, { probability: e.break_even, low: 0, high: 1, plans: 1, level: 0.9 });
    expect(at?.expected_r).toBeCloseTo(0, 12);
    // a reward the cost eats whole never breaks even
    expect(
      planEdge(longPlan(100, 95, 100.05, 2), { probability: 1, low: 1, high: 1, plans: 1, level: 0.9 }),
    ).toMatchObject({ break_even: 1 });
    expect(
      planEdge({ ...plan, direction: null }, { probability: 0.5, low: 0.4, high: 0.6, plans: 9, level: 0.9 }),
    ).toBe(null);
  });
});

/** A calibration whose curves put the probability at `p` on `plans` training plans. */
function calibrationAt(p: number, plans: number): SignalCalibration {
  // an evidence-only curve at p (without the shipped table's geometry part, session 14, which would
  // condition p on each plan's break-even): the gate is what is tested here, at a drawn p
  const family = ({ geometry: _geometry, ...base }: FamilyCalibration): FamilyCalibration => ({
    ...base,
    direction: 'constant',
    knots: [{ evidence: 0.5, probability: p, plans }],
    base_rate: Math.min(p, base.base_rate),
  });
  return {
    provenance: SIGNAL_CALIBRATION.provenance,
    families: {
      daily: family(SIGNAL_CALIBRATION.families.daily),
      intraday: family(SIGNAL_CALIBRATION.families.intraday),
    },
  };
}

describe('no call without an edge', () => {
  it('a published call always has an expected R above zero at its interval’s lower end, and publishes the plan it was judged by (260..600 candles)', () => {
    const judged = reach('a call of the score judged by its plan (published, or held with a declined plan)');
    const published = reach('a published buy or sell');
    const declined = reach('a call held for lack of edge, with its declined plan');
    judged.assert(
      fc.property(
        trendingCandleSeries(260, 600),
        fc.nat(),
        fc.integer({ min: 15, max: 90 }).map((x) => x / 100),
        fc.integer({ min: 20, max: 3000 }),
        // the round trips of fx, stocks and the default: generated hourly swings are small
        fc.constantFrom(0.012, 0.05, 0.2),
        (rows, cut, p, plans, costPct) => {
          const ctx = computeContext(toColumns(rows));
          const n = rows.length;
          const calibration = calibrationAt(p, plans);
          // the reward minimum of the plan (poor_reward, issue 38) is off here: this checks the
          // expected-R gate, which a plan declined for its reward never reaches
          const plan = { costPct, minNetRiskReward: 0 };
          // from a drawn bar on, the first bar (wrapping) whose score calls a side with a plan
          for (let j = 0; j < n - 210; j++) {
            const k = 210 + ((cut + j) % (n - 210));
            const raw = signal(ctx, { asOf: k, calibration, minEdge: -1 });
            if (raw.action === 'hold') continue;
            const sig = signal(ctx, { asOf: k, calibration, plan });
            if (sig.action !== 'hold') {
              judged.hit();
              published.hit();
              expect(sig.edge).not.toBeNull();
              expect(sig.edge?.expected_r_low).toBeGreaterThan(0);
              expect(sig.confidence).toBe(sig.edge?.probability);
              expect(sig.declined_plan).toBeNull();
              const a = analyze(ctx, { asOf: k, plan });
              if (a.signal.action !== 'hold') {
                expect(a.signal.edge?.expected_r_low).toBeGreaterThan(0);
                expect(a.zone.direction).toBe(a.signal.action === 'buy' ? 'long' : 'short');
              }
            } else {
              expect(sig.reason).toBe(sig.declined_plan?.reason === 'poor_reward' ? 'poor_reward' : 'no_edge');
              expect(sig.declined_plan?.recommendation).toBe(false);
              expect(sig.declined_plan?.direction ?? null).toBe(
                sig.edge === null ? null : raw.action === 'buy' ? 'long' : 'short',
              );
              if (sig.edge !== null) {
                expect(sig.edge.expected_r_low).toBeLessThanOrEqual(0);
                judged.hit();
                declined.hit();
              } else continue; // a call whose plan has no trade was judged by none: look further on
            }
            break;
          }
        },
      ),
      // Measured: about 65% of draws judge a call, 36% publish one, 30% decline one; each floor lies
      // five standard deviations of its binomial below, so chance fails it less than once in 10^6 runs.
      {
        numRuns: 100,
        atLeast: 0.4,
        also: [
          [published, 0.12],
          [declined, 0.07],
        ],
      },
    );
  });
});

describe('a hold reads as a hold', () => {
  // What a sentence stating a confidence in holding would contain, per locale.
  const CONFIDENCE: Record<(typeof OVERVIEW_LOCALES)[number], RegExp> = {
    en: /confiden/i,
    es: /confianza/i,
    de: /konfidenz|zuversicht/i,
    fr: /confiance/i,
    pt: /confiança/i,
    ja: /信頼度|確信/,
    zh: /置信|信心/,
  };

  it('never states a confidence in holding, in all seven locales, and says why there is no trade (260..600 candles)', () => {
    const holds = reach('a hold');
    const withDeclined = reach('a hold naming its declined plan');
    holds.assert(
      fc.property(
        trendingCandleSeries(260, 600, 86_400_000),
        fc.nat(),
        fc.double({ min: 0.15, max: 0.6, noNaN: true }),
        (rows, cut, p) => {
          const ctx = computeContext(toColumns(rows));
          const n = rows.length;
          const calibration = calibrationAt(p, 400);
          // every hold of the window is checked, up to the first that names a declined plan with a
          // trade (issue 38's plans decline most calls with no trade, target_blocked)
          let held = false;
          for (let j = 0; j < 40; j++) {
            const k = 210 + ((cut + j) % (n - 210));
            const sig = signal(ctx, { asOf: k, calibration });
            if (sig.action !== 'hold') continue;
            if (!held) holds.hit();
            held = true;
            const a = { ...analyze(ctx, { asOf: k }), signal: sig };
            const facts = overviewFacts(a);
            const fact = facts.find((f) => f.id === 'signal');
            expect(fact?.values.confidence_pct).toBeUndefined();
            expect(fact?.values.hold_reason?.value).toBe(sig.reason ?? 'conflicting');
            const pct = Math.round(sig.confidence * 100);
            // the hold's own number (1 - p) as a percent, unless a figure of the declined plan equals it
            const own = new RegExp(`(^|[^\\d])${pct}[\\s\\u00a0\\u202f]?%`);
            const shown = [fact?.values.probability_pct?.value, fact?.values.break_even_pct?.value];
            for (const locale of OVERVIEW_LOCALES) {
              const text = renderOverview(facts, locale);
              const sentence = renderOverview([fact ?? { id: 'signal', values: {} }], locale);
              expect(text, locale).not.toMatch(CONFIDENCE[locale]);
              if (!shown.includes(pct)) expect(sentence, locale).not.toMatch(own);
            }
            if (fact?.values.declined !== undefined) {
              withDeclined.hit();
              break;
            }
          }
        },
      ),
      // Measured: about 95% of draws reach a hold, 40-58% one naming its declined plan (before issue
      // 38's plans; with them 7% when only the first hold was read, hence the search of the window);
      // the floors lie five standard deviations of their binomials below.
      { numRuns: 60, atLeast: 0.75, also: [[withDeclined, 0.12]] },
    );
  });
});
