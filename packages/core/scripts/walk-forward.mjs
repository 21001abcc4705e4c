// The walk-forward shared by scripts/eval.mjs and scripts/fit-calibration.mjs: the real series in
// ../shared/data, and at every candle after the warm-up the analysis as of that candle with the
// plan on the side its score leans to, simulated on the candles after it with the 0.20% cost.
// Deterministic.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze, breakEvenOf, buildPlan, computeContext, signalEvidence, simulatePlan } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
export const dataDir = process.env.MARKETLENS_SHARED_DATA ?? resolve(here, '../../../../shared/data');

/** Candles analysed before the first plan (a third of the series when shorter). */
export const WARMUP = 210;
/** Fewest training plans per knot of the calibration curve. */
export const MIN_PLANS = 150;
/** Share of each series (by time) that trains the calibration; the rest is held out. */
export const TRAIN_SHARE = 0.7;

function columns(rows) {
  const n = rows.length;
  const c = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  rows.forEach((r, i) => {
    c.time[i] = r[0];
    c.open[i] = r[1];
    c.high[i] = r[2];
    c.low[i] = r[3];
    c.close[i] = r[4];
    c.volume[i] = r[5];
  });
  return c;
}

/** The real series, or null when ../shared/data is absent. */
export function loadSeries() {
  if (!existsSync(dataDir)) return null;
  const csvRows = (file, toRow) =>
    readFileSync(join(dataDir, file), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => toRow(l.split(',')));
  const yahoo = (f) => [Date.parse(`${f[0]}T00:00:00Z`), +f[1], +f[2], +f[3], +f[4], +f[6]];
  const json = (file) => columns(JSON.parse(readFileSync(join(dataDir, file), 'utf8')));
  return [
    {
      name: 'nvda d1',
      file: 'nvda-1999-2014-d1.csv',
      candles: columns(csvRows('nvda-1999-2014-d1.csv', yahoo)),
      stride: 1,
    },
    {
      name: 'orcl d1',
      file: 'orcl-1995-2014-d1.csv',
      candles: columns(csvRows('orcl-1995-2014-d1.csv', yahoo)),
      stride: 1,
    },
    {
      name: 'index m5',
      file: 'index-2006-m5.csv',
      candles: columns(
        csvRows('index-2006-m5.csv', (f) => [Date.parse(`${f[0]}T${f[1]}Z`), +f[2], +f[3], +f[4], +f[5], +f[6]]),
      ),
      stride: 1,
    },
    { name: 'crypto m1', file: 'crypto-pair-m1.json', candles: json('crypto-pair-m1.json'), stride: 2 },
    { name: 'xrp perp h1', file: 'xrp-usdt-perp-h1.json', candles: json('xrp-usdt-perp-h1.json'), stride: 1 },
  ];
}

/** Index where a series' held-out part starts (the first analysed candle at or past 70%). */
export function splitIndex(n) {
  return Math.floor(TRAIN_SHARE * n);
}

/**
 * Walks one series. Calls `onAnalysis(a, i)` for every analysis and returns one record per
 * analysis whose score leans to a side: the evidence for that side, whether the signal published
 * it, and the outcome of the plan on that side (built as analyze builds the published one).
 * `options` (`levels`, `plan`) go to analyze and to the plan, to walk a candidate detection or plan.
 */
export function walk(s, onAnalysis, options = {}) {
  const c = s.candles;
  const ctx = computeContext(c);
  const n = c.close.length;
  const split = splitIndex(n);
  const records = [];
  for (let i = Math.min(WARMUP, Math.floor(n / 3)); i < n - 1; i += s.stride) {
    const a = analyze(ctx, { levels: options.levels, plan: options.plan, asOf: i });
    onAnalysis?.(a, i);
    const ev = signalEvidence(a.signal.factors);
    if (ev.side === null) continue;
    const direction = ev.side === 'buy' ? 'long' : 'short';
    const levels = { ...a.levels, volume_profile: a.volume_profile };
    const gated = a.zone.direction === direction ? a.zone : buildPlan(c, levels, { ...options.plan, direction });
    const plan = gated;
    // The calibration's plan: the default plan when it has a trade, else the same geometry with the
    // reward minimums off (a structural plan whose target 1 is near), so the fit sees every geometry.
    const calPlan =
      gated.direction !== null ? gated : buildPlan(c, levels, { ...options.plan, ...PRE_GATE, direction });
    const published = a.signal.action !== 'hold';
    const record = {
      series: s.name,
      i,
      part: i < split ? 'train' : 'test',
      side: ev.side,
      strength: ev.strength,
      agreement: ev.agreement,
      coverage: ev.coverage,
      evidence: ev.evidence,
      candidate: Math.abs(a.signal.score) > a.signal.threshold,
      published,
      action: a.signal.action,
      reason: a.signal.reason ?? null,
      confidence: a.signal.confidence,
      plan: plan.direction !== null,
      gated_plan: gated.direction !== null,
      plan_reason: gated.reason,
      entry_type: gated.entry_type,
      targets: gated.take_profits.length,
      r1_net: gated.take_profits[0]?.risk_reward_net ?? null,
      beyond_level:
        gated.direction === null ? null : targetBeyondLevel(gated, a.levels.zones.filter(significant(a.levels))),
      beyond_minor: gated.direction === null ? null : targetBeyondLevel(gated, a.levels.zones),
      outcome: null,
      realized_r: null,
    };
    if (plan.direction !== null) {
      const sim = simulatePlan(plan, c, { fromIndex: i + 1 });
      record.outcome = sim.outcome;
      record.realized_r = sim.realized_r;
    }
    record.cal_plan = calPlan.direction !== null;
    record.cal_gated = calPlan === gated;
    record.break_even = breakEvenOf(calPlan);
    record.cal_outcome = calPlan === gated ? record.outcome : null;
    if (calPlan.direction !== null && calPlan !== gated)
      record.cal_outcome = simulatePlan(calPlan, c, { fromIndex: i + 1 }).outcome;
    records.push(record);
  }
  return records;
}

/** A closed plan: entered and resolved (target 1, stop or time stop). */
export const closed = (r) => r.outcome === 'tp_hit' || r.outcome === 'stopped_out' || r.outcome === 'time_stopped';

/** The calibration's plan closed (see `walk`: the default plan, else the pre-gate one). */
export const calClosed = (r) =>
  r.cal_outcome === 'tp_hit' || r.cal_outcome === 'stopped_out' || r.cal_outcome === 'time_stopped';

/** The reward minimums turned off: the plan before the gates that decide whether it is published. */
export const PRE_GATE = { minRiskReward: 0, minNetRiskReward: -1e6 };

const EXTREMES = ['all_time_high', 'all_time_low', 'high_52w', 'low_52w'];
/**
 * A level of some strength, as `buildPlan` reads its default obstacles: two swings or more, the higher
 * timeframe's, or a range extreme (the rule restated here, not imported, so the eval checks it).
 */
export const significant = (levels) => (z) =>
  z.touches >= 2 ||
  (levels.higher_timeframe !== null && z.timeframe === levels.higher_timeframe) ||
  z.sources.some((x) => EXTREMES.includes(x));

/**
 * Whether a plan's target 1 lies beyond a level in the way: a zone whose near edge (its low for a
 * long, its high for a short) is strictly between the entry and target 1.
 */
export function targetBeyondLevel(plan, zones) {
  const s = plan.direction === 'long' ? 1 : -1;
  const entry = s * plan.entry_price;
  const t1 = s * plan.take_profits[0].price;
  return zones.some((z) => {
    const near = s > 0 ? z.low : -z.high;
    return near > entry + 1e-9 && near < t1 - 1e-9;
  });
}
