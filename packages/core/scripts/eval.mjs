// pnpm --filter @marketlens/core eval
// Walk-forward evaluation on the real series in ../shared/data (see scripts/walk-forward.mjs):
// at each candle the analysis reads only the candles up to it, publishes its plan, and the plan
// is simulated on the candles after it with the 0.20% round-trip cost. Writes EVALUATION.md
// (outcomes, the confidence calibration on training and held-out parts side by side, Brier
// scores against the base rate, permutation tests, the bounce rate at detected levels against a
// shuffled-level null with its permutation test, and the searches of zone detection and plan
// parameters on the training part) and evaluation-reliability.svg beside it. Deterministic: the
// same bytes on every run (the timing line goes to the console only).
// EVAL_ONLY=levels, EVAL_ONLY=plans, EVAL_ONLY=signals, EVAL_ONLY=factors or EVAL_ONLY=regime runs that part alone and prints it without writing files.
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildPlan,
  calibratePlan,
  fitCalibration,
  SIGNAL_CALIBRATION,
  SIGNAL_MIN_EDGE,
  SIGNAL_WEIGHTS,
  supportResistance,
  timeframeFamily,
} from '../dist/index.js';
import { factorSearchSection } from './factor-search.mjs';
import {
  HTF_FACTOR,
  LEVEL_BASE,
  LEVEL_GRID,
  LOOK,
  permutationTest,
  prng,
  SIDES,
  searchLevels,
  shuffle,
  zoneEvents,
} from './levels-null.mjs';
import { bootstrapCI, PLAN_BASE, planCases, planOutcomes, searchPlans } from './plan-search.mjs';
import { regimeEvaluation, regimeSectionLines } from './regime-eval.mjs';
import { signalEdgeSection } from './signal-edge.mjs';
import { calClosed, closed, dataDir, loadSeries, MIN_PLANS, splitIndex, TRAIN_SHARE, walk } from './walk-forward.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const series = loadSeries();
if (!series) {
  console.error(`eval needs the real series in ${dataDir} (the ../shared folder beside the repo); none found.`);
  process.exit(2);
}

const OUTCOMES = ['pending', 'entered', 'tp_hit', 'stopped_out', 'time_stopped', 'expired'];
const PERMUTATIONS = 1000;
const ONLY = process.env.EVAL_ONLY ?? null;
if (ONLY !== null && !['levels', 'plans', 'signals', 'factors', 'regime'].includes(ONLY)) {
  console.error(`EVAL_ONLY must be levels, plans, signals, factors or regime, got ${ONLY}`);
  process.exit(2);
}
const runs = (part) => ONLY === null || ONLY === part;
const LEVEL_GRID_BASE = (filter) => LEVEL_GRID.find((g) => g.filter === filter)?.base;

// ---- walk every series once ----
const t0 = performance.now();
const records = [];
const perSeries = [];
let analyses = 0;
let rawHolds = 0;
let holds = 0;
for (const s of series) {
  const c = s.candles;
  const family = timeframeFamily(c.time, c.close.length - 1);
  let n = 0;
  const split = splitIndex(c.close.length);
  const lv = { train: levelStats(), test: levelStats() };
  const recs = walk(s, (a, i) => {
    n++;
    addLevels(lv[i < split ? 'train' : 'test'], a.levels);
    if (Math.abs(a.signal.score) <= a.signal.threshold) rawHolds++;
    if (a.signal.action === 'hold') holds++;
  });
  analyses += n;
  for (const r of recs) {
    r.family = family;
    r.hit = r.outcome === 'tp_hit';
  }
  records.push(...recs);
  perSeries.push({ name: s.name, family, analyses: n, recs, lv });
}
const seconds = (performance.now() - t0) / 1000;

// ---- levels and plan geometry (issue 38) ----
function levelStats() {
  return { n: 0, inside: 0, both: 0, below: [], above: [] };
}
function addLevels(st, levels) {
  st.n++;
  if (levels.atr === null || levels.zones.length === 0) return;
  if (levels.at_all_time_high || levels.at_all_time_low) return;
  st.inside++;
  const sup = levels.nearest_support;
  const res = levels.nearest_resistance;
  if (sup !== null && res !== null) st.both++;
  if (sup?.distance_atr != null) st.below.push(Math.abs(sup.distance_atr));
  if (res?.distance_atr != null) st.above.push(Math.abs(res.distance_atr));
}

// ---- helpers ----
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const f = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : '-');
const pts = (x) => (Number.isFinite(x) ? (100 * x).toFixed(1) : '-');
const lines = [];
const out = (s = '') => lines.push(s);

/** Equal-count deciles of the forecasts (ties in forecast order kept by walk order). */
function deciles(rows) {
  const s = rows.map((r, k) => ({ ...r, k })).sort((a, b) => a.p - b.p || a.k - b.k);
  const n = s.length;
  return Array.from({ length: 10 }, (_, d) => {
    const part = s.slice(Math.floor((d * n) / 10), Math.floor(((d + 1) * n) / 10));
    return { n: part.length, p: mean(part.map((x) => x.p)), y: mean(part.map((x) => (x.hit ? 1 : 0))) };
  });
}

/** Reliability error, Brier score of the forecasts and of the constant `b` forecast, counts. */
function scores(rows) {
  const ds = deciles(rows).filter((d) => d.n >= 50);
  const hits = rows.filter((r) => r.hit).length;
  return {
    n: rows.length,
    hits,
    rate: rows.length ? hits / rows.length : Number.NaN,
    reliability: ds.length ? mean(ds.map((d) => Math.abs(d.p - d.y))) : Number.NaN,
    deciles: ds.length,
    brier: mean(rows.map((r) => (r.p - (r.hit ? 1 : 0)) ** 2)),
    brierBase: mean(rows.map((r) => (r.b - (r.hit ? 1 : 0)) ** 2)),
  };
}

/**
 * One-sided permutation test of the Brier improvement over the base rate: the forecasts are
 * shuffled among the plans of each series (seeded), which keeps their distribution and breaks
 * their link to the outcome. p = (1 + shuffles at least as good) / (1 + shuffles).
 */
function permutation(rows, seed) {
  const gain = (rs) => mean(rs.map((r) => (r.b - (r.hit ? 1 : 0)) ** 2 - (r.p - (r.hit ? 1 : 0)) ** 2));
  const observed = gain(rows);
  const groups = new Map();
  for (const r of rows) {
    if (!groups.has(r.series)) groups.set(r.series, []);
    groups.get(r.series).push(r);
  }
  const rnd = prng(seed);
  let asGood = 0;
  for (let k = 0; k < PERMUTATIONS; k++) {
    const shuffled = [];
    for (const g of groups.values()) {
      const ps = shuffle(
        g.map((r) => r.p),
        rnd,
      );
      for (let j = 0; j < g.length; j++) shuffled.push({ ...g[j], p: ps[j] });
    }
    if (gain(shuffled) >= observed) asGood++;
  }
  return { observed, p: (1 + asGood) / (1 + PERMUTATIONS) };
}

// ---- calibration: the shipped table (time split) and leave one series out ----
// The calibration's population (session 14): the default plan when it has a trade, else the same
// geometry before the reward minimums; its forecast is conditioned on the plan's break-even.
const plans = records
  .filter(calClosed)
  .map((r) => ({ ...r, hit: r.cal_outcome === 'tp_hit', breakEven: r.break_even }));
const table = SIGNAL_CALIBRATION.families;
const shipped = plans.map((r) => ({
  ...r,
  p: calibratePlan(table[r.family], r.evidence, r.breakEven),
  b: table[r.family].base_rate,
}));
const train = shipped.filter((r) => r.part === 'train');
const test = shipped.filter((r) => r.part === 'test');
const loso = [];
for (const s of perSeries) {
  const curves = {};
  for (const family of ['intraday', 'daily']) {
    curves[family] = fitCalibration(
      plans.filter((r) => r.series !== s.name && r.family === family),
      { minPlans: MIN_PLANS },
    );
  }
  for (const r of plans.filter((x) => x.series === s.name)) {
    loso.push({ ...r, p: calibratePlan(curves[r.family], r.evidence, r.breakEven), b: curves[r.family].base_rate });
  }
}
const sTrain = scores(train);
const sTest = scores(test);
const sLoso = scores(loso);
const published = (rows) => rows.filter((r) => r.published);
const calls = (rows) => rows.filter((r) => r.candidate);

// ---- the document ----
out('# Evaluation of the analysis engine on real series');
out();
out(
  'Produced by `pnpm --filter @marketlens/core eval` (scripts: `scripts/eval.mjs`, `scripts/walk-forward.mjs`) on the real',
);
out(
  'series in `../shared/data`. Walk-forward: at every candle (every second candle on the 1-minute crypto pair) after a',
);
out(
  'warm-up of 210 candles (a third of the series when shorter), `analyze()` reads only the candles up to that one and',
);
out(
  'publishes its plan (a long on Buy, a short on Sell, none on Hold); `simulatePlan()` walks the candles after it with the',
);
out(
  'flat 0.20% round-trip cost, 70% at target 1 and 30% at target 2, a candle touching both stop and target resolving to',
);
out('the stop. Deterministic: a rerun writes the same file.');
out();
out('## What confidence means');
out();
out(
  "A Buy's or Sell's `confidence` is the probability that its plan, once entered, reaches target 1 before its stop and",
);
out(
  "before its time stop, with the 0.20% cost. A Hold's is 1 minus that probability for the plan on the side the score",
);
out(
  "leans to (the trade it declines). For a call judged by a plan, the probability is conditioned on that plan's geometry:",
);
out(
  "`logit(P) = h(q) + g(evidence)`, with `q` the plan's break-even after costs (`breakEvenOf`: a driftless walk reaches",
);
out(
  'target 1 first with probability q), `h` non-decreasing in q and `g` monotone in the raw evidence (`raw_confidence`);',
);
out(
  'for a hold, or a call whose plan has no trade, it comes from a monotone curve of the raw evidence alone. Both are fitted',
);
out('per timeframe family on the first 70% of each series (`scripts/fit-calibration.mjs`, shipped as');
out(
  `\`SIGNAL_CALIBRATION\` with its provenance). A Buy or Sell whose probability is below the base rate + ${Math.round(SIGNAL_MIN_EDGE * 100)} points`,
);
out("(`SIGNAL_MIN_EDGE`) is published as a Hold with `reason: 'no_edge'`.");
out();
const fam = (name) => {
  const t = table[name];
  const g = t.geometry;
  const geo = g
    ? `; geometry: h from ${f(1 / (1 + Math.exp(-g.break_even_knots[0].offset)), 2)} at q ${f(g.break_even_knots[0].at, 2)} to ${f(1 / (1 + Math.exp(-g.break_even_knots[g.break_even_knots.length - 1].offset)), 2)} at q ${f(g.break_even_knots[g.break_even_knots.length - 1].at, 2)} (${g.break_even_knots.length} knots), evidence term ${g.direction} (score test z ${f(g.z, 2)}, ${g.evidence_knots.length} knots)`
    : '';
  return `${name}: ${t.plans} training plans, base rate ${pts(t.base_rate)}%, Kendall tau ${f(t.tau)} (z ${f(t.z, 2)}), curve ${t.direction}${geo}`;
};
out(`Fitted tables: ${fam('daily')}; ${fam('intraday')}.`);
out();
const says = (name) => {
  const t = table[name];
  if (t.direction === 'increasing')
    return `on the ${name} series more evidence went with more plans reaching target 1 in the training years (the curve rises with evidence)`;
  if (t.direction === 'decreasing')
    return `on the ${name} series more evidence went with *fewer* plans reaching target 1 in the training years, so the curve falls with evidence and the strongest ${name} calls are published as Holds`;
  return `on the ${name} series no relation is measurable, so their calls carry the base rate as their confidence: no edge, said plainly`;
};
out(`What it says, plainly: ${says('daily')}; ${says('intraday')}. Whether that held in the held-out years is in the`);
out('next table; confidence says what the plans did, it does not make them pay (see the mean realized R below).');
out();
out('## Calibration: training and held-out side by side');
out();
out(
  `Plans: every analysis whose score leans to a side, with the default plan on that side when it has a trade, else the same geometry with the reward minimums off (\`minRiskReward: 0\`, \`minNetRiskReward: -1e6\`), entered and closed (${plans.length} plans); forecast: \`calibratePlan\` at the plan's break-even. Time split: the first ${Math.round(TRAIN_SHARE * 100)}% of each series trains the shipped table, the rest is held out. Leave one series out: the same fit on the other series, evaluated on the one left out (each family refitted). Reliability error: mean |forecast - realized| over equal-count deciles of the forecast with at least 50 plans, in points. Base rate: the constant forecast of the training part's rate (per family).`,
);
out();
out('| | training (70%) | held out (30%) | leave one series out |');
out('|---|---:|---:|---:|');
out(`| plans | ${sTrain.n} | ${sTest.n} | ${sLoso.n} |`);
out(`| reached target 1 | ${pct(sTrain.hits, sTrain.n)} | ${pct(sTest.hits, sTest.n)} | ${pct(sLoso.hits, sLoso.n)} |`);
out(
  `| reliability error (points; deciles) | ${pts(sTrain.reliability)} (${sTrain.deciles}) | ${pts(sTest.reliability)} (${sTest.deciles}) | ${pts(sLoso.reliability)} (${sLoso.deciles}) |`,
);
out(`| Brier, calibrated | ${f(sTrain.brier, 4)} | ${f(sTest.brier, 4)} | ${f(sLoso.brier, 4)} |`);
out(`| Brier, base rate | ${f(sTrain.brierBase, 4)} | ${f(sTest.brierBase, 4)} | ${f(sLoso.brierBase, 4)} |`);
const permTest = permutation(test, 24);
const permLoso = permutation(loso, 25);
out(
  `| permutation test of the Brier gain (p, ${PERMUTATIONS} shuffles) | - | ${f(permTest.p, 3)} | ${f(permLoso.p, 3)} |`,
);
out();
out(
  `Target (issue 24): reliability error at most 5 points and Brier below the base rate on the held-out part. Time split: ${sTest.reliability <= 0.05 ? 'met' : 'missed'} (${pts(sTest.reliability)} points) and ${sTest.brier < sTest.brierBase ? 'met' : 'missed'} (${f(sTest.brier, 4)} against ${f(sTest.brierBase, 4)}). Leave one series out: ${sLoso.reliability <= 0.05 ? 'met' : 'missed'} (${pts(sLoso.reliability)} points) and ${sLoso.brier < sLoso.brierBase ? 'met' : 'missed'} (${f(sLoso.brier, 4)} against ${f(sLoso.brierBase, 4)}). The permutation test shuffles the forecasts among the plans of each series; its p says how often a forecast with no link to the outcome gained as much over the base rate.`,
);
out();
out('### Reliability by decile of the forecast (reliability diagram: `evaluation-reliability.svg`)');
out();
out('![reliability diagram](evaluation-reliability.svg)');
out();
out(
  '| decile | training: plans | forecast | realized | held out: plans | forecast | realized | leave one out: plans | forecast | realized |',
);
out('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
const dTrain = deciles(train);
const dTest = deciles(test);
const dLoso = deciles(loso);
for (let d = 0; d < 10; d++) {
  const cell = (x) => `${x.n} | ${pts(x.p)}% | ${pts(x.y)}%`;
  out(`| ${d + 1} | ${cell(dTrain[d])} | ${cell(dTest[d])} | ${cell(dLoso[d])} |`);
}
out();
out('### By series (held out: the last 30%)');
out();
out('| series | family | held-out plans | reached target 1 | mean forecast | Brier | Brier, base rate |');
out('|---|---|---:|---:|---:|---:|---:|');
for (const s of perSeries) {
  const x = scores(test.filter((r) => r.series === s.name));
  out(
    `| ${s.name} | ${s.family} | ${x.n} | ${pct(x.hits, x.n)} | ${pts(mean(test.filter((r) => r.series === s.name).map((r) => r.p)))}% | ${f(x.brier, 4)} | ${f(x.brierBase, 4)} |`,
  );
}
out();

// ---- levels by side and plan geometry (issue 38) ----
{
  const quant = (xs, q) => {
    if (xs.length === 0) return Number.NaN;
    const s = [...xs].sort((x, y) => x - y);
    return s[Math.min(s.length - 1, Math.floor(q * s.length))];
  };
  const median = (xs) => quant(xs, 0.5);
  const max = (xs) => (xs.length ? Math.max(...xs) : Number.NaN);
  out('## Levels by side and plan geometry (issue 38)');
  out();
  out(
    'Every analysed candle of the walk-forward, training part (first 70%) beside the held-out part. Inside the range: the close is neither at the all-time high nor at the all-time low of the earlier stored candles (`at_all_time_high` / `at_all_time_low` false), so a level should stand on each side. Both sides: a zone entirely below the close and one entirely above it (`nearest_support`, `nearest_resistance`; the zone holding the close counts on neither). Distances are from the close to the near edge of the nearest level each side, in ATR(14).',
  );
  out();
  out(
    '| series | part | analyses | inside the range | both sides hold a level | nearest support, median / max ATR | nearest resistance, median / max ATR |',
  );
  out('|---|---|---:|---:|---:|---:|---:|');
  for (const s of perSeries) {
    for (const part of ['train', 'test']) {
      const x = s.lv[part];
      out(
        `| ${s.name} | ${part === 'train' ? 'training' : 'held out'} | ${x.n} | ${x.inside} | ${pct(x.both, x.inside)} | ${f(median(x.below), 2)} / ${f(max(x.below), 2)} | ${f(median(x.above), 2)} / ${f(max(x.above), 2)} |`,
      );
    }
  }
  out();
  out(
    "Plans: the default plan on the side each leaning analysis's score calls (published or not), at the walk's 0.20% round trip. Target 1 beyond a level of some strength: the near edge of a zone with two swings or more, of the higher timeframe or holding a range extreme lies strictly between the entry and target 1 (should be 0); beyond a minor pivot: any zone's (a single-touch level the target may pass, as a chartist does). R at target 1 is `risk_reward_net`. Limit: the entry waits at a support below the close (a resistance above it for a short); an unfilled limit plan expires and is no trade (the outcome table above counts it as `expired`).",
  );
  out();
  out(
    '| series | part | leaning analyses | plans | share with a plan | target 1 beyond a level of some strength | target 1 beyond a minor pivot | median R at target 1, net | two targets | limit entries | limit filled | poor_reward | target_blocked |',
  );
  out('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const geometryRow = (name, recs) => {
    for (const part of ['train', 'test']) {
      const rs = recs.filter((r) => r.part === part);
      const ps = rs.filter((r) => r.gated_plan);
      const lim = ps.filter((r) => r.entry_type === 'limit');
      const filled = lim.filter((r) => r.outcome !== null && r.outcome !== 'expired' && r.outcome !== 'pending');
      out(
        `| ${name} | ${part === 'train' ? 'training' : 'held out'} | ${rs.length} | ${ps.length} | ${pct(ps.length, rs.length)} | ${ps.filter((r) => r.beyond_level).length} | ${pct(ps.filter((r) => r.beyond_minor).length, ps.length)} | ${f(median(ps.map((r) => r.r1_net)), 2)} | ${pct(ps.filter((r) => r.targets === 2).length, ps.length)} | ${lim.length} | ${pct(filled.length, lim.length)} | ${rs.filter((r) => r.plan_reason === 'poor_reward').length} | ${rs.filter((r) => r.plan_reason === 'target_blocked').length} |`,
      );
    }
  };
  for (const s of perSeries) geometryRow(s.name, s.recs);
  geometryRow('**all**', records);
  out();
  out('Signal flips per year per series, training beside held out: the table of "Calls with an edge" below.');
  out();
}

// ---- published plans, before and after the edge gate ----
out('## Walk-forward plans as published (0.20% round-trip cost)');
out();
out(
  `Published: the plans of the Buys and Sells that clear base rate + ${Math.round(SIGNAL_MIN_EDGE * 100)} points. hit rate = tp_hit / closed (closed = tp_hit + stopped_out + time_stopped).`,
);
out();
out(`| series | analyses | plans | ${OUTCOMES.join(' | ')} | closed | mean realized R | hit rate |`);
out(`|---|---:|---:|${OUTCOMES.map(() => '---:').join('|')}|---:|---:|---:|`);
const outcomeRow = (name, n, recs) => {
  const ps = recs.filter((r) => r.published && r.plan);
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, ps.filter((r) => r.outcome === o).length]));
  const cl = ps.filter(closed);
  out(
    `| ${name} | ${n} | ${ps.length} | ${OUTCOMES.map((o) => counts[o]).join(' | ')} | ${cl.length} | ${f(mean(cl.map((r) => r.realized_r)))} | ${pct(counts.tp_hit, cl.length)} |`,
  );
};
for (const s of perSeries) outcomeRow(s.name, s.analyses, s.recs);
outcomeRow('**all**', analyses, records);
out();
out('## Before and after calibration (issue 24)');
out();
out(
  '"Before" is the rule without the edge gate: every Buy and Sell of the score published, with the raw evidence as its confidence.',
);
out();
const summary = (rows) => {
  const cl = rows.filter(closed);
  return {
    n: rows.filter((r) => r.plan).length,
    closed: cl.length,
    r: mean(cl.map((r) => r.realized_r)),
    hit: pct(cl.filter((r) => r.hit).length, cl.length),
  };
};
const before = { all: summary(calls(records)), test: summary(calls(records.filter((r) => r.part === 'test'))) };
const after = { all: summary(published(records)), test: summary(published(records.filter((r) => r.part === 'test'))) };
out('| | before: all | after: all | before: held out | after: held out |');
out('|---|---:|---:|---:|---:|');
out(`| Hold share of analyses | ${pct(rawHolds, analyses)} | ${pct(holds, analyses)} | | |`);
out(`| plans published | ${before.all.n} | ${after.all.n} | ${before.test.n} | ${after.test.n} |`);
out(`| closed plans | ${before.all.closed} | ${after.all.closed} | ${before.test.closed} | ${after.test.closed} |`);
out(
  `| mean realized R per closed plan | ${f(before.all.r)} | ${f(after.all.r)} | ${f(before.test.r)} | ${f(after.test.r)} |`,
);
out(`| hit rate (target 1 first) | ${before.all.hit} | ${after.all.hit} | ${before.test.hit} | ${after.test.hit} |`);
const conf = (rows) => mean(rows.filter(closed).map((r) => r.confidence));
out(
  `| mean published confidence of closed calls | ${f(
    mean(
      calls(records)
        .filter(closed)
        .map((r) => r.evidence),
    ),
  )} | ${f(conf(published(records)))} | ${f(
    mean(
      calls(records.filter((r) => r.part === 'test'))
        .filter(closed)
        .map((r) => r.evidence),
    ),
  )} | ${f(conf(published(records.filter((r) => r.part === 'test'))))} |`,
);
out();
// Recorded, not recomputed: the same walk-forward (every Buy and Sell published, 0.20% cost) at the
// commits before and after issue 27, whose code this script no longer runs.
out('### Earlier: issue 27 (closed-candle coherence, targets that respect resistance, evidence-based Hold and regime)');
out();
out('Recorded from this script at the commits before (258455f) and after issue 27, before calibration:');
out();
out('| | before issue 27 | after issue 27 |');
out('|---|---:|---:|');
out('| plans published (all series) | 5783 | 4637 |');
out('| closed plans | 4868 | 3883 |');
out('| mean realized R per closed plan | -0.101 | -0.134 |');
out('| hit rate (target 1 first) | 22.1% | 20.5% |');
out('| hit rate of plans at raw confidence 0.8-1.0 | 20.6% | 18.9% |');
out();
out(
  'Targets stopped jumping strong opposing zones (fewer plans, nearer targets) and Holds stopped claiming confidence;',
);
out('the plans became coherent with the levels a trader sees, not profitable.');
out();

// ---- levels: the permutation test, and the search of the detection on the training part ----
const timeframe = (name) => name.split(' ').pop();
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
/** The last candle of each part of each series: where a search's choice is checked against the shipped default. */
const probes = (s) => [Math.floor(s.candles.close.length * TRAIN_SHARE) - 1, s.candles.close.length - 1];
let levelChoice = null;
let planChoice = null;
if (runs('levels')) {
  const tl = performance.now();
  out('## Support and resistance against a shuffled-level null (issue 24)');
  out();
  out(
    `A test of the nearest zone on one side at an analysed candle: price reaches the zone within ${LOOK} candles; bounce: it then moves 1 ATR away from the zone before closing 0.5 ATR through it (a break), within ${LOOK} candles of the touch. Bounce rate = bounces / tested (bounce, break or neither). Null: every zone moved, with its width, to the distance from the mark (in ATRs) of the zone detected at another analysed candle of the same part, side and series, by a seeded permutation; ${PERMUTATIONS} permutations, p = (1 + permutations whose bounce rate is at least the detected one) / ${PERMUTATIONS + 1}. The candles analysed are those of the walk-forward (every second one on the 1-minute pair); training: the first ${Math.round(TRAIN_SHARE * 100)}% of each series, stopping ${2 * LOOK} candles short of the split so that no training test reads a held-out candle; held out: the rest.`,
  );
  out();
  out(
    'Neighbouring tests overlap in time (a zone is tested at every candle), so the permutations of single zones understate the spread of the null; the last column permutes blocks of 10 consecutive tests whole, which keeps that overlap in the null, and is the p to trust.',
  );
  out();
  // the search, on the training part only
  const search = searchLevels(series);
  out('### The search (training part only)');
  out();
  out(
    `Training edge: over every series and side, (detected bounces - the null's expected bounces) / tested zones, in points, the null's expectation from 100 seeded permutations. One parameter at a time, in the order of the table, from the detection before issue 24 (window ${LEVEL_BASE.window}, fractalSpan ${LEVEL_BASE.fractalSpan}, zigzagAtr ${LEVEL_BASE.zigzagAtr}, clusterAtr ${LEVEL_BASE.clusterAtr}, maxWidthAtr ${LEVEL_BASE.maxWidthAtr}, minWidthAtr ${LEVEL_BASE.minWidthAtr}, halfLife ${LEVEL_BASE.halfLife}, maxZones ${LEVEL_BASE.maxZones}; every zone may be the nearest), each value tried with the choices so far; a value is chosen when it beats the current edge by more than 0.5 points overall and on both halves of the training part (first and second half by time). In brackets: the edge on the first and second half. The held-out part was not read.`,
  );
  out();
  out('| parameter | values tried: training edge, points [halves] (tested zones) | chosen |');
  out('|---|---|---:|');
  const e = (x) => (100 * x).toFixed(2);
  for (const r of search.rows) {
    out(
      `| ${r.param} | ${r.tried.map((t) => `${t.value}: ${e(t.edge)} [${e(t.halves[0])}, ${e(t.halves[1])}] (${t.tested})`).join('; ')} | ${r.pick} |`,
    );
  }
  out();
  const chosenText = Object.entries(search.chosen)
    .map(([k, v]) => `${k} ${v}`)
    .concat(
      Object.entries(search.filters)
        .filter(([k, v]) => v !== LEVEL_GRID_BASE(k))
        .map(([k, v]) =>
          k === 'extra'
            ? `higher-timeframe zones ${v === 'add' ? 'added to the candidates' : 'alone'}`
            : k === 'htfConfirm'
              ? `nearest zone within ${v} ATR of a higher-timeframe zone`
              : `min ${k} ${v}`,
        ),
    )
    .join(', ');
  out(
    `Training choice: ${chosenText || 'nothing (the detection before issue 24 stays)'}; training edge ${e(search.base.edge)} -> ${e(search.final.edge)} points.`,
  );
  levelChoice = {
    options: { ...LEVEL_BASE, ...search.chosen },
    filter: search.filter,
    extra: search.extra,
    text: chosenText,
  };
  // merging across timeframes (issue 24.2): its variant with the best training edge, reported beside
  // the shipped detection unless it is the training choice itself
  const merge = search.merge;
  const mergeIsChoice =
    merge !== null &&
    search.filters[merge.kind] === merge.value &&
    (search.filters[merge.kind === 'extra' ? 'htfConfirm' : 'extra'] ?? 'off') === 'off' &&
    same(merge.options, levelChoice.options);
  if (merge !== null) {
    out(
      `Merging across timeframes (issue 24.2): the higher timeframe is built from the same series by aggregating consecutive candles (${Object.entries(
        HTF_FACTOR,
      )
        .map(([tf, k]) => `${tf}: ${k}`)
        .join(
          ', ',
        )}; blocks counted from the first candle), and at an analysed candle only the higher-timeframe bars closed by that candle are read; its zones come from the same detection options (window and spans counted in higher-timeframe bars, its own ATR). Two rules, tried last with the choices so far: confirm (the nearest zone must lie within x ATR of a higher-timeframe zone; 0: overlapping it) and add (the higher-timeframe zones join the detected ones as candidates for the nearest, or replace them). Best training edge among them: ${merge.text}, ${e(merge.edge)} points (${mergeIsChoice ? 'the training choice' : 'not the training choice'}). Shown as a detection of its own in the table below when it is not the training choice.`,
    );
  }
  const shippedIsBase = series.every((s) => {
    const atr = s.ctx.atr(14);
    return probes(s).every((i) =>
      same(
        supportResistance(s.candles, { asOf: i, atr }),
        supportResistance(s.candles, { ...LEVEL_BASE, asOf: i, atr }),
      ),
    );
  });
  const shippedIsChoice =
    search.filter === null &&
    search.extra === null &&
    series.every((s) => {
      const atr = s.ctx.atr(14);
      return probes(s).every((i) =>
        same(
          supportResistance(s.candles, { asOf: i, atr }),
          supportResistance(s.candles, { ...levelChoice.options, asOf: i, atr }),
        ),
      );
    });
  out(
    shippedIsChoice
      ? 'The training choice is the shipped default of `supportResistance()` (checked: the same zones at the last candle of each part of each series).'
      : `The training choice is **not** the shipped default: the shipped \`supportResistance()\` ${shippedIsBase ? 'is still the detection before issue 24 (checked at the last candle of each part of each series)' : 'differs from both'}; why, in "What the training choices would do to the calibration" below.`,
  );
  out();
  // the permutation test, training and held out side by side, before and after
  out('### The permutation test: training and held out side by side');
  out();
  out(
    `shipped: the shipped default detection; choice: the training choice of the search${merge !== null && !mergeIsChoice ? `; tf merge: the training choice before the merging rows with the merging variant of best training edge (${merge.text})` : ''}${mergeIsChoice ? '; choice, no merge: the training choice before the merging rows (without merging across timeframes)' : ''}. null: mean bounce rate over the ${PERMUTATIONS} permutations; p: single-zone permutations; p, blocks: blocks of 10 consecutive tests.`,
  );
  out();
  out(
    '| series | side | detection | training: tested | bounce rate | null | p | p, blocks | held out: tested | bounce rate | null | null 99th pct | p | p, blocks |',
  );
  out('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const verdict = {};
  // seeds by slot: the shipped detection and the training choice keep the seeds they had with two
  // detections per side; a further detection draws from a range of its own
  let slot = 0;
  for (const s of series) {
    const det = { shipped: { train: zoneEvents(s, 'train'), test: zoneEvents(s, 'test') } };
    if (!shippedIsChoice) {
      det.choice = {
        train: zoneEvents(s, 'train', levelChoice.options, levelChoice.filter, levelChoice.extra),
        test: zoneEvents(s, 'test', levelChoice.options, levelChoice.filter, levelChoice.extra),
      };
    }
    if (mergeIsChoice && search.preMerge !== null) {
      det['choice, no merge'] = {
        train: zoneEvents(s, 'train', search.preMerge.options, search.preMerge.filter, search.preMerge.extra),
        test: zoneEvents(s, 'test', search.preMerge.options, search.preMerge.filter, search.preMerge.extra),
      };
    }
    if (merge !== null && !mergeIsChoice) {
      det['tf merge'] = {
        train: zoneEvents(s, 'train', merge.options, merge.filter, merge.extra),
        test: zoneEvents(s, 'test', merge.options, merge.filter, merge.extra),
      };
    }
    for (const kind of SIDES) {
      slot++;
      for (const [di, d] of Object.keys(det).entries()) {
        const cell = {};
        for (const [pi, part] of ['train', 'test'].entries()) {
          const seed = di < 2 ? 100 + 4 * (slot - 1) + 2 * di + pi + 1 : 5000 + 4 * slot + 2 * di + pi;
          const iid = permutationTest(s, kind, det[d][part][kind], { shuffles: PERMUTATIONS, seed });
          const blk = permutationTest(s, kind, det[d][part][kind], { shuffles: PERMUTATIONS, seed, block: 10 });
          cell[part] = { ...iid, pBlock: blk.p };
        }
        const r = (x) => pct(x.observed.bounce, x.observed.tested);
        const pp = (x) => (Number.isFinite(x) ? `${pts(x)}%` : '-');
        const tr = cell.train;
        const te = cell.test;
        out(
          `| ${s.name} | ${kind} | ${d} | ${tr.observed.tested} | ${r(tr)} | ${pp(tr.nullMean)} | ${f(tr.p)} | ${f(tr.pBlock)} | ${te.observed.tested} | ${r(te)} | ${pp(te.nullMean)} | ${pp(te.null99)} | ${f(te.p)} | ${f(te.pBlock)} |`,
        );
        if (verdict[d] === undefined) verdict[d] = [];
        verdict[d].push({ series: s.name, kind, ...te });
      }
    }
  }
  out();
  const list = (vs) => (vs.length ? vs.map((v) => `${v.series} ${v.kind}`).join(', ') : 'none');
  for (const [d, vs] of Object.entries(verdict)) {
    const bar = ['nvda d1', 'orcl d1', 'crypto m1']
      .map((name) => {
        const won = vs.filter((v) => v.series === name && v.pBlock < 0.01).map((v) => v.kind);
        return `${name} ${won.length ? `met (${won.join(', ')})` : 'missed'}`;
      })
      .join('; ');
    out(
      `Held out, ${d === 'shipped' ? 'shipped detection' : d === 'choice, no merge' ? 'training choice before the merging rows' : d === 'choice' ? `training choice${mergeIsChoice ? ` (merging across timeframes: ${merge.text})` : ''}` : `merging across timeframes (${merge.text})`}: beats the null at p < 0.01 with single-zone permutations: ${list(vs.filter((v) => v.p < 0.01))}; with blocks of 10: ${list(vs.filter((v) => v.pBlock < 0.01))}. No edge at p < 0.01 (blocks): ${list(vs.filter((v) => !(v.pBlock < 0.01)))}. The bar of issue 24 (p < 0.01 on the held-out daily stocks and crypto series, blocks): ${bar}.`,
    );
    out();
  }
  if (merge !== null) {
    const vs = verdict[mergeIsChoice ? 'choice' : 'tf merge'];
    const won = (name) => vs.filter((v) => v.series === name && v.pBlock < 0.01).map((v) => v.kind);
    const daily = ['nvda d1', 'orcl d1', 'crypto m1'];
    const all = daily.every((name) => won(name).length > 0);
    out(
      `Merging across timeframes (${merge.text}${mergeIsChoice ? ', the training choice' : ''}) ${all ? 'beat' : 'did **not** beat'} the null at p < 0.01 with blocks of 10 on the held-out daily stocks and crypto: ${daily.map((name) => `${name} ${won(name).length ? `yes (${won(name).join(', ')})` : 'no'}`).join('; ')}. Training edge before the merging rows ${e(search.rows.find((r) => r.filter === 'htfConfirm').tried[0].edge)} points, with merging ${e(merge.edge)} points.`,
    );
    out();
  }
  console.error(`levels: ${((performance.now() - tl) / 1000).toFixed(1)} s`);
}

// ---- plans: the search of stop and target parameters on the training part ----
if (runs('plans')) {
  const tp = performance.now();
  out('## Plans: mean realized R after costs, training and held out (issue 24)');
  out();
  const pcs = series.map(planCases);
  const search = searchPlans(pcs);
  out(
    'Plans: every analysed candle whose score leans to a side, with the plan on that side built from the shipped levels, simulated with the 0.20% round-trip cost (70% at target 1, 30% at target 2); mean realized R per closed plan (target, stop or time stop). Training plans are simulated on the training candles only (a plan still open at the split is left out); held-out plans on the whole series. 95% interval: a seeded moving-block bootstrap of the mean (1,000 resamples of blocks of 20 consecutive plans, percentiles 2.5 and 97.5), since neighbouring plans overlap in time.',
  );
  out();
  out('### The search (training part only)');
  out();
  out(
    'Coordinate ascent on the pooled training mean R of every series, one parameter at a time in the order of the table from the options before issue 24 (the values marked in the grid as the start), each value tried with the choices so far; a value is chosen when it beats the current figure by more than 0.02 R overall and on both halves of the training part. In brackets: the mean R on the first and second half. Every other plan option stays at its default. The held-out part was not read.',
  );
  out();
  out('| parameter | start | values tried: training mean R [halves] (closed plans) | chosen |');
  out('|---|---:|---|---:|');
  for (const r of search.rows) {
    out(
      `| ${r.key} | ${r.base} | ${r.tried.map((t) => `${t.value}: ${f(t.r)} [${f(t.halves[0])}, ${f(t.halves[1])}] (${t.n})`).join('; ')} | ${r.pick} |`,
    );
  }
  out();
  const chosenText = Object.entries(search.chosen)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  out(
    `Training choice: ${chosenText || 'nothing (the options before issue 24 stay)'}; pooled training mean R ${f(search.base.r)} -> ${f(search.final.r)}.`,
  );
  const choice = { ...PLAN_BASE, ...search.chosen };
  planChoice = { options: choice, text: chosenText };
  const sample = (opts) =>
    pcs.every((pc) =>
      pc.cases
        .filter((_, k) => k % 50 === 0)
        .every((k) =>
          same(
            buildPlan(pc.candles, k.levels, { direction: k.direction }),
            buildPlan(pc.candles, k.levels, { ...opts, direction: k.direction }),
          ),
        ),
    );
  const shippedIsChoice = sample(choice);
  out(
    shippedIsChoice
      ? 'The training choice is the shipped default of `buildPlan()` (checked on every 50th plan of each series).'
      : `The training choice is **not** the shipped default: the shipped \`buildPlan()\` ${sample(PLAN_BASE) ? 'still has the options before issue 24 (checked on every 50th plan of each series)' : 'differs from both'}; why, in "What the training choices would do to the calibration" below.`,
  );
  out();
  out('### Mean realized R per series: the shipped defaults and the training choice');
  out();
  out(
    '| series | timeframe | training, shipped: plans | mean R [95% CI] | training, choice: plans | mean R [95% CI] | held out, shipped: plans | mean R [95% CI] | held out, choice: plans | mean R [95% CI] |',
  );
  out('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  const ci = (xs, seed) => {
    if (xs.length === 0) return '-';
    if (xs.length < 40) return `${f(mean(xs))} (too few for an interval)`;
    const [lo, hi] = bootstrapCI(xs, { seed });
    return `${f(mean(xs))} [${f(lo)}, ${f(hi)}]`;
  };
  const pooled = { train: { before: [], after: [] }, test: { before: [], after: [] } };
  let seed = 500;
  for (const pc of pcs) {
    const cells = [];
    for (const part of ['train', 'test']) {
      for (const [d, opts] of [
        ['before', {}],
        ['after', choice],
      ]) {
        const rs = planOutcomes(pc, part, opts);
        pooled[part][d].push(...rs);
        cells.push(`${rs.length} | ${ci(rs, ++seed)}`);
      }
    }
    out(`| ${pc.series.name} | ${timeframe(pc.series.name)} | ${cells.join(' | ')} |`);
  }
  const pooledSeeds = {};
  const allCells = [];
  for (const part of ['train', 'test']) {
    for (const d of ['before', 'after']) {
      seed++;
      if (part === 'test') pooledSeeds[d] = seed;
      allCells.push(`${pooled[part][d].length} | ${ci(pooled[part][d], seed)}`);
    }
  }
  out(`| **all** | | ${allCells.join(' | ')} |`);
  out();
  const better = mean(pooled.test.after) > mean(pooled.test.before);
  const [bl, bh] = bootstrapCI(pooled.test.before, { seed: pooledSeeds.before });
  const [al, ah] = bootstrapCI(pooled.test.after, { seed: pooledSeeds.after });
  const overlap = al <= bh && bl <= ah;
  out(
    `Held out, all series pooled: mean R ${f(mean(pooled.test.before))} with the shipped defaults, ${f(mean(pooled.test.after))} with the training choice: ${better ? 'the training choice also raised the held-out figure' : 'the training choice did not raise the held-out figure'}, ${mean(pooled.test.after) > 0 ? 'positive' : 'still negative'} after costs; ${overlap ? 'the two intervals overlap (no measurable difference)' : 'the two intervals do not overlap'}.`,
  );
  out();
  console.error(`plans: ${((performance.now() - tp) / 1000).toFixed(1)} s`);
}

// ---- what the training choices would do to the calibration ----
// ---- the regime's forward-return separation (issue 38; scripts/regime-eval.mjs) ----
if (runs('regime')) {
  for (const line of regimeSectionLines(regimeEvaluation(series), { cycleWeight: SIGNAL_WEIGHTS.cycle_phase })) {
    out(line);
  }
}

if (ONLY === null && levelChoice !== null && planChoice !== null) {
  out('## What the training choices would do to the calibration');
  out();
  out(
    'The walk and the fit of the shipped table (`scripts/fit-calibration.mjs`: every analysis whose score leans to a side, with its default plan or, without a trade, the same geometry before the reward minimums; the first 70% of each series fits the geometry-conditioned model per family), with the training choices in place of the shipped defaults; held out: mean R is over the published plans entered and closed. The held-out figures are those the calibration targets of issue 24 are judged on (reliability error at most 5 points, Brier below the base rate), which `src/signal/calibration.test.ts` holds for the shipped table: a choice becomes a default only when it keeps them. They gate the choices, nothing was searched on them; but this gate reads the held-out part, so a choice it rejects is a choice the held-out years vetoed.',
  );
  out();
  out(
    '| variant | training: plans | reached target 1 | reliability error | Brier | Brier, base rate | held out: plans | reached target 1 | reliability error | Brier | Brier, base rate | held-out targets | held out: mean R |',
  );
  out('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|');
  const variants = [['shipped defaults', {}]];
  // the walk reads supportResistance() options only: a rule that picks the nearest zone (min
  // touches, volume, merging across timeframes) is not part of them and is left out here
  const optionsText = Object.entries(levelChoice.options)
    .filter(([k, v]) => LEVEL_BASE[k] !== v)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  if (optionsText)
    variants.push([
      `detection choice (${optionsText}${optionsText !== levelChoice.text ? '; its rules for the nearest zone left out' : ''})`,
      { levels: levelChoice.options },
    ]);
  if (planChoice.text) variants.push([`plan choice (${planChoice.text})`, { plan: planChoice.options }]);
  if (optionsText && planChoice.text)
    variants.push(['both choices', { levels: levelChoice.options, plan: planChoice.options }]);
  for (const [name, opts] of variants) {
    const rs = [];
    for (const s of series) {
      const family = perSeries.find((x) => x.name === s.name).family;
      // the shipped table's population and model (session 14): the default plan when it has a
      // trade, else the same geometry before the reward minimums, forecast at its break-even
      for (const r of walk(s, null, opts))
        if (calClosed(r)) rs.push({ ...r, family, hit: r.cal_outcome === 'tp_hit', breakEven: r.break_even });
    }
    const curves = {};
    for (const family of ['intraday', 'daily']) {
      curves[family] = fitCalibration(
        rs.filter((r) => r.part === 'train' && r.family === family),
        { minPlans: MIN_PLANS },
      );
    }
    const scored = rs.map((r) => ({
      ...r,
      p: calibratePlan(curves[r.family], r.evidence, r.breakEven),
      b: curves[r.family].base_rate,
    }));
    const a = scores(scored.filter((r) => r.part === 'train'));
    const b = scores(scored.filter((r) => r.part === 'test'));
    const met = b.reliability <= 0.05 && b.brier < b.brierBase;
    out(
      `| ${name} | ${a.n} | ${pct(a.hits, a.n)} | ${pts(a.reliability)} | ${f(a.brier, 4)} | ${f(a.brierBase, 4)} | ${b.n} | ${pct(b.hits, b.n)} | ${pts(b.reliability)} | ${f(b.brier, 4)} | ${f(b.brierBase, 4)} | ${met ? 'met' : 'missed'} | ${f(mean(scored.filter((r) => r.part === 'test' && r.realized_r !== null).map((r) => r.realized_r)))} |`,
    );
  }
  out();
}

// ---- the reliability diagram ----
function svg() {
  const W = 420;
  const M = 50;
  const S = W - 2 * M;
  const max = 0.4;
  const x = (v) => (M + (v / max) * S).toFixed(1);
  const y = (v) => (W - M - (v / max) * S).toFixed(1);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${W}" viewBox="0 0 ${W} ${W}" font-family="sans-serif" font-size="11" role="img" aria-labelledby="title">`,
    '<title id="title">Reliability diagram: signal confidence against the share of plans that reached target 1</title>',
    `<rect width="${W}" height="${W}" fill="white"/>`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="13">Signal confidence: forecast against realized (deciles)</text>`,
  ];
  for (let t = 0; t <= max + 1e-9; t += 0.1) {
    parts.push(`<line x1="${x(t)}" y1="${y(0)}" x2="${x(t)}" y2="${y(max)}" stroke="#eee"/>`);
    parts.push(`<line x1="${x(0)}" y1="${y(t)}" x2="${x(max)}" y2="${y(t)}" stroke="#eee"/>`);
    parts.push(`<text x="${x(t)}" y="${W - M + 15}" text-anchor="middle">${(100 * t).toFixed(0)}%</text>`);
    parts.push(`<text x="${M - 6}" y="${Number(y(t)) + 4}" text-anchor="end">${(100 * t).toFixed(0)}%</text>`);
  }
  parts.push(`<line x1="${x(0)}" y1="${y(0)}" x2="${x(max)}" y2="${y(max)}" stroke="#999" stroke-dasharray="4 3"/>`);
  parts.push(`<text x="${W / 2}" y="${W - 12}" text-anchor="middle">forecast (mean confidence of the decile)</text>`);
  parts.push(
    `<text x="14" y="${W / 2}" text-anchor="middle" transform="rotate(-90 14 ${W / 2})">realized: reached target 1 first</text>`,
  );
  const series_ = [
    ['training', dTrain, '#1f77b4', 'circle'],
    ['held out', dTest, '#d62728', 'square'],
    ['leave one out', dLoso, '#2ca02c', 'diamond'],
  ];
  series_.forEach(([name, ds, color, shape], k) => {
    const pts_ = ds.filter((d) => d.n >= 50);
    parts.push(
      `<polyline fill="none" stroke="${color}" stroke-width="1.2" points="${pts_.map((d) => `${x(Math.min(max, d.p))},${y(Math.min(max, d.y))}`).join(' ')}"/>`,
    );
    for (const d of pts_) {
      const cx = Number(x(Math.min(max, d.p)));
      const cy = Number(y(Math.min(max, d.y)));
      if (shape === 'circle') parts.push(`<circle cx="${cx}" cy="${cy}" r="3.5" fill="${color}"/>`);
      else if (shape === 'square')
        parts.push(
          `<rect x="${(cx - 3.5).toFixed(1)}" y="${(cy - 3.5).toFixed(1)}" width="7" height="7" fill="${color}"/>`,
        );
      else
        parts.push(
          `<polygon points="${cx},${(cy - 4.5).toFixed(1)} ${(cx + 4.5).toFixed(1)},${cy} ${cx},${(cy + 4.5).toFixed(1)} ${(cx - 4.5).toFixed(1)},${cy}" fill="${color}"/>`,
        );
    }
    parts.push(`<rect x="${M + 10}" y="${M + 5 + 16 * k}" width="10" height="10" fill="${color}"/>`);
    parts.push(`<text x="${M + 26}" y="${M + 14 + 16 * k}">${name}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

// Calls with an edge (issue 40): its own section, scripts/signal-edge.mjs.
if (runs('signals')) {
  out('');
  for (const l of signalEdgeSection(series)) out(l);
}

// The search for an edge among published factors (issue 40): scripts/factor-search.mjs.
if (runs('factors')) {
  out('');
  for (const l of factorSearchSection(series)) out(l);
}

if (ONLY === null) {
  writeFileSync(resolve(here, '../EVALUATION.md'), `${lines.join('\n')}\n`);
  writeFileSync(resolve(here, '../evaluation-reliability.svg'), svg());
}
console.log(lines.join('\n'));
console.log(
  `\n${analyses} analyses in ${seconds.toFixed(1)} s (${((seconds * 1000) / analyses).toFixed(2)} ms each, shared indicator context); wrote EVALUATION.md and evaluation-reliability.svg.`,
);
