// The search over plan parameters, shared by scripts/eval.mjs: every analysis whose score leans to
// a side gets the plan on that side under the tried options, simulated with the 0.20% round-trip
// cost; the training part chooses, the held-out part only reports. Deterministic.
import { analyze, buildPlan, computeContext, signalEvidence, simulatePlan } from '../dist/index.js';
import { prng } from './levels-null.mjs';
import { closed, splitIndex, WARMUP } from './walk-forward.mjs';

/** The grid, searched one parameter at a time in this order from the current choice (coordinate ascent). */
export const PLAN_GRID = [
  { key: 'stopBufferAtr', values: [0, 0.25, 0.5, 1], base: 0.25 },
  { key: 'minStopAtr', values: [0.25, 0.5, 1, 1.5], base: 0.5 },
  { key: 'maxStopAtr', values: [2, 3, 5], base: 3 },
  { key: 'maxPullbackAtr', values: [0, 0.5, 1, 2], base: 1 },
  { key: 'minRiskReward', values: [0.5, 1, 1.5, 2], base: 1 },
  { key: 'fallbackRiskReward', values: [1, 1.5, 2, 3], base: 2 },
  { key: 'obstacleStrength', values: [0.5, 0.6, 0.8, 1.01], base: 0.6 },
  { key: 'maxTargetAtr', values: [3, 6, 10], base: 6 },
  { key: 'maxHorizonBars', values: [20, 50, 100], base: 50 },
];

/**
 * The plan options before issue 24, from which the search starts (passed explicitly, so the search
 * reads the same after its choice became the default).
 */
export const PLAN_BASE = Object.fromEntries(PLAN_GRID.map((g) => [g.key, g.base]));

/** A view of the first `len` candles (training plans never read a held-out candle). */
function prefix(c, len) {
  const out = {};
  for (const k of ['time', 'open', 'high', 'low', 'close', 'volume']) out[k] = c[k].subarray(0, len);
  return out;
}

/**
 * The cases of one series: every analysed candle whose score leans to a side, with its levels
 * (the default detection) and its part. Training cases are simulated on the training candles only.
 */
export function planCases(s) {
  const c = s.candles;
  const ctx = computeContext(c);
  const n = c.close.length;
  const split = splitIndex(n);
  const train = prefix(c, split);
  const cases = [];
  for (let i = Math.min(WARMUP, Math.floor(n / 3)); i < n - 1; i += s.stride) {
    const a = analyze(ctx, { asOf: i });
    const ev = signalEvidence(a.signal.factors);
    if (ev.side === null) continue;
    cases.push({
      i,
      part: i < split ? 'train' : 'test',
      direction: ev.side === 'buy' ? 'long' : 'short',
      levels: { ...a.levels, volume_profile: a.volume_profile },
    });
  }
  return { series: s, candles: c, train, cases };
}

/** Realized R of the closed plans of one part under `options` (with their candle when `withIndex`). */
export function planOutcomes(pc, part, options, withIndex = false) {
  const rs = [];
  for (const k of pc.cases) {
    if (k.part !== part) continue;
    if (part === 'train' && k.i >= pc.train.close.length - 1) continue;
    const plan = buildPlan(pc.candles, k.levels, { ...options, direction: k.direction });
    if (plan.direction === null) continue;
    const sim = simulatePlan(plan, part === 'train' ? pc.train : pc.candles, { fromIndex: k.i + 1 });
    if (closed(sim)) rs.push(withIndex ? { i: k.i, r: sim.realized_r } : sim.realized_r);
  }
  return rs;
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

/**
 * A 95% interval of the mean by a seeded moving-block bootstrap: 1,000 resamples of blocks of
 * `block` consecutive plans (neighbouring plans overlap in time, so single plans are not
 * independent), percentiles 2.5 and 97.5.
 */
export function bootstrapCI(xs, { block = 20, resamples = 1000, seed = 42 } = {}) {
  const n = xs.length;
  if (n < 2) return [Number.NaN, Number.NaN];
  const b = Math.min(block, n);
  const starts = n - b + 1;
  const rnd = prng(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    let m = 0;
    while (m < n) {
      const s = Math.floor(rnd() * starts);
      for (let q = s; q < s + b && m < n; q++, m++) sum += xs[q];
    }
    means[r] = sum / n;
  }
  means.sort();
  return [means[Math.floor(0.025 * resamples)], means[Math.ceil(0.975 * resamples) - 1]];
}

/**
 * Pooled training mean R over every series under `options`, and on each half of the training part
 * (by time), the check that a gain is not one period's luck.
 */
function trainingR(pcs, options) {
  const all = [];
  const halves = [[], []];
  for (const pc of pcs) {
    const rs = planOutcomes(pc, 'train', { ...PLAN_BASE, ...options }, true);
    const mid = pc.train.close.length / 2;
    for (const x of rs) {
      all.push(x.r);
      halves[x.i < mid ? 0 : 1].push(x.r);
    }
  }
  return { r: mean(all), n: all.length, halves: halves.map(mean) };
}

/**
 * Coordinate ascent over PLAN_GRID on the pooled training mean R: each parameter in turn takes the
 * value with the best training figure given the choices so far, when it beats the current one by
 * more than `minGain` R and on both halves of the training part. Returns every tried value with
 * its training figure and the choice.
 */
export function searchPlans(pcs, { minGain = 0.02 } = {}) {
  const chosen = {};
  let current = trainingR(pcs, chosen);
  const base = current;
  const rows = [];
  for (const g of PLAN_GRID) {
    const cur = chosen[g.key] ?? g.base;
    const tried = [];
    for (const v of g.values) {
      tried.push({ ...(v === cur ? current : trainingR(pcs, { ...chosen, [g.key]: v })), value: v });
    }
    const ok = tried.filter(
      (t) => t.r - current.r > minGain && t.halves[0] > current.halves[0] && t.halves[1] > current.halves[1],
    );
    if (ok.length > 0) {
      const best = ok.reduce((a, b) => (b.r > a.r ? b : a));
      chosen[g.key] = best.value;
      current = best;
    }
    rows.push({ ...g, tried, pick: chosen[g.key] ?? g.base });
  }
  return { base, rows, chosen, final: current };
}
