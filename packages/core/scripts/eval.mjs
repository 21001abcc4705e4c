// pnpm --filter @marketlens/core eval
// Walk-forward evaluation on the real series in ../shared/data (see scripts/walk-forward.mjs):
// at each candle the analysis reads only the candles up to it, publishes its plan, and the plan
// is simulated on the candles after it with the 0.20% round-trip cost. Writes EVALUATION.md
// (outcomes, the confidence calibration on training and held-out parts side by side, Brier
// scores against the base rate, permutation tests, bounce rate at detected levels against a
// shuffled-level null) and evaluation-reliability.svg beside it. Deterministic: the same bytes
// on every run (the timing line goes to the console only).
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { calibrate, fitCalibration, SIGNAL_CALIBRATION, SIGNAL_MIN_EDGE, timeframeFamily } from '../dist/index.js';
import { closed, dataDir, loadSeries, MIN_PLANS, TRAIN_SHARE, walk } from './walk-forward.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const series = loadSeries();
if (!series) {
  console.error(`eval needs the real series in ${dataDir} (the ../shared folder beside the repo); none found.`);
  process.exit(2);
}

const OUTCOMES = ['pending', 'entered', 'tp_hit', 'stopped_out', 'time_stopped', 'expired'];
const PERMUTATIONS = 1000;

/** mulberry32, seeded: the shuffled nulls are reproducible. */
function prng(seed) {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle(xs, rnd) {
  for (let k = xs.length - 1; k > 0; k--) {
    const j = Math.floor(rnd() * (k + 1));
    [xs[k], xs[j]] = [xs[j], xs[k]];
  }
  return xs;
}

/**
 * A support test: the first candle within `look` candles after `i` whose low reaches the zone top.
 * It bounces when, within `look` candles of that touch, a high clears zone top + 1 ATR before a
 * close under zone low - 0.5 ATR (a break). Resistance mirrors it.
 */
function levelTest(c, i, kind, low, high, atr, look = 10) {
  const n = c.close.length;
  for (let j = i + 1; j <= Math.min(n - 1, i + look); j++) {
    const touched = kind === 'support' ? c.low[j] <= high : c.high[j] >= low;
    if (!touched) continue;
    for (let k = j; k <= Math.min(n - 1, j + look); k++) {
      if (kind === 'support') {
        if (c.close[k] < low - 0.5 * atr) return 'break';
        if (c.high[k] >= high + atr) return 'bounce';
      } else {
        if (c.close[k] > high + 0.5 * atr) return 'break';
        if (c.low[k] <= low - atr) return 'bounce';
      }
    }
    return 'none';
  }
  return 'untested';
}

// ---- walk every series once ----
const t0 = performance.now();
const records = [];
const perSeries = [];
const levelRows = [];
let analyses = 0;
let rawHolds = 0;
let holds = 0;
for (const s of series) {
  const c = s.candles;
  const family = timeframeFamily(c.time, c.close.length - 1);
  const tests = { support: [], resistance: [] };
  let n = 0;
  const recs = walk(s, (a, i) => {
    n++;
    if (Math.abs(a.signal.score) <= a.signal.threshold) rawHolds++;
    if (a.signal.action === 'hold') holds++;
    for (const kind of ['support', 'resistance']) {
      const z = kind === 'support' ? a.levels.nearest_support : a.levels.nearest_resistance;
      if (z && a.levels.atr) tests[kind].push({ i, low: z.low, high: z.high, atr: a.levels.atr, mark: a.levels.mark });
    }
  });
  analyses += n;
  for (const r of recs) {
    r.family = family;
    r.hit = r.outcome === 'tp_hit';
  }
  records.push(...recs);
  perSeries.push({ name: s.name, family, analyses: n, recs });
  // bounce rate: detected levels against the same zones shifted to a distance drawn from another
  // time's detected distance (a permutation of distances in ATR units)
  const rnd = prng(12345);
  for (const kind of ['support', 'resistance']) {
    const ev = tests[kind];
    const dist = shuffle(
      ev.map((e) => ((e.low + e.high) / 2 - e.mark) / e.atr),
      rnd,
    );
    const tally = (zones) => {
      const t = { bounce: 0, break: 0, none: 0, untested: 0 };
      for (const z of zones) t[levelTest(c, z.i, kind, z.low, z.high, z.atr)]++;
      return t;
    };
    const real = tally(ev);
    const shuffled = tally(
      ev.map((e, k) => {
        const half = (e.high - e.low) / 2;
        const mid = e.mark + dist[k] * e.atr;
        return { ...e, low: mid - half, high: mid + half };
      }),
    );
    levelRows.push({ series: s.name, kind, real, shuffled });
  }
}
const seconds = (performance.now() - t0) / 1000;

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
const plans = records.filter(closed);
const table = SIGNAL_CALIBRATION.families;
const shipped = plans.map((r) => ({ ...r, p: calibrate(table[r.family], r.evidence), b: table[r.family].base_rate }));
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
    loso.push({ ...r, p: calibrate(curves[r.family], r.evidence), b: curves[r.family].base_rate });
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
  'leans to (the trade it declines). The probability comes from a monotone curve of the raw evidence (`raw_confidence`),',
);
out('one per timeframe family, fitted on the first 70% of each series (`scripts/fit-calibration.mjs`, shipped as');
out(
  `\`SIGNAL_CALIBRATION\` with its provenance). A Buy or Sell whose probability is below the base rate + ${Math.round(SIGNAL_MIN_EDGE * 100)} points`,
);
out("(`SIGNAL_MIN_EDGE`) is published as a Hold with `reason: 'no_edge'`.");
out();
const fam = (name) => {
  const t = table[name];
  return `${name}: ${t.plans} training plans, base rate ${pts(t.base_rate)}%, Kendall tau ${f(t.tau)} (z ${f(t.z, 2)}), curve ${t.direction}`;
};
out(`Fitted tables: ${fam('daily')}; ${fam('intraday')}.`);
out();
out(
  'What it says, plainly: the raw evidence does not have a positive edge. On the daily series more evidence went with',
);
out('*fewer* plans reaching target 1, in the training years and in the held-out years alike, so the daily curve falls');
out('with evidence, and the strongest daily calls are published as Holds; on the intraday series no relation is');
out('measurable, so their calls carry the base rate as their confidence: no edge, said plainly. Confidence now says');
out('what the plans did; it does not make them pay.');
out();
out('## Calibration: training and held-out side by side');
out();
out(
  `Plans: every analysis whose score leans to a side, with the default plan on that side, entered and closed (${plans.length} plans). Time split: the first ${Math.round(TRAIN_SHARE * 100)}% of each series trains the shipped table, the rest is held out. Leave one series out: the same fit on the other series, evaluated on the one left out (each family refitted). Reliability error: mean |forecast - realized| over equal-count deciles of the forecast with at least 50 plans, in points. Base rate: the constant forecast of the training part's rate (per family).`,
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

// ---- levels ----
out('## Bounce rate at detected levels against a shuffled-level null');
out();
out(
  'A test: price reaches the nearest zone within 10 candles; bounce: it then moves 1 ATR away from the zone before closing 0.5 ATR through it. Null: the same zones moved to a distance (in ATR) drawn from another time (seeded permutation).',
);
out();
out(
  '| series | side | detected: tested | bounce | break | bounce rate | null: tested | bounce | break | bounce rate |',
);
out('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of levelRows) {
  const t = (x) => x.bounce + x.break + x.none;
  out(
    `| ${r.series} | ${r.kind} | ${t(r.real)} | ${r.real.bounce} | ${r.real.break} | ${pct(r.real.bounce, t(r.real))} | ${t(r.shuffled)} | ${r.shuffled.bounce} | ${r.shuffled.break} | ${pct(r.shuffled.bounce, t(r.shuffled))} |`,
  );
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

writeFileSync(resolve(here, '../EVALUATION.md'), `${lines.join('\n')}\n`);
writeFileSync(resolve(here, '../evaluation-reliability.svg'), svg());
console.log(lines.join('\n'));
console.log(
  `\n${analyses} analyses in ${seconds.toFixed(1)} s (${((seconds * 1000) / analyses).toFixed(2)} ms each, shared indicator context); wrote EVALUATION.md and evaluation-reliability.svg.`,
);
