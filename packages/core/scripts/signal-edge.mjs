// The published calls with an edge (issue 40), walked forward on the real series and on random
// control series: calls per year, their realized R after the asset class's cost with a block
// bootstrap interval, expected beside realized R, the spread of confidence among published calls,
// flips of the action per year; training part beside held-out part. `signalEdgeSection(series)`
// returns the EVALUATION.md section (markdown lines); run alone (after
// `pnpm --filter @marketlens/core build`), `node scripts/signal-edge.mjs` prints it.
// Deterministic: seeded controls and bootstrap.
import { fileURLToPath } from 'node:url';
import { analyze, computeContext, roundTripCostPct, simulatePlan } from '../dist/index.js';
import { loadSeries, splitIndex, WARMUP } from './walk-forward.mjs';

/** The asset class whose round trip each real series trades at (the index at the stocks' cost). */
const CLASS_OF = {
  'nvda d1': 'stocks',
  'orcl d1': 'stocks',
  'index m5': 'stocks',
  'crypto m1': 'coins',
  'xrp perp h1': 'coins',
};
const YEAR_MS = 365.25 * 86_400_000;
const BLOCK = 20;
const RESAMPLES = 1000;

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random control candles: a driftless log-normal walk, `n` daily candles, `vol` daily. */
export function controlSeries(seed, n = 4000, vol = 0.02) {
  const rnd = mulberry32(seed);
  const gauss = () => {
    const u = Math.max(rnd(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
  };
  const c = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  let p = 100;
  for (let i = 0; i < n; i++) {
    const o = p;
    p = o * Math.exp(vol * gauss());
    c.time[i] = Date.UTC(2000, 0, 3) + i * 86_400_000;
    c.open[i] = o;
    c.close[i] = p;
    c.high[i] = Math.max(o, p) * (1 + Math.abs(0.5 * vol * gauss()));
    c.low[i] = Math.min(o, p) * (1 - Math.abs(0.5 * vol * gauss()));
    c.volume[i] = 1e6 * Math.exp(0.3 * gauss());
  }
  return c;
}

/** Walks one series: every analysed candle's action, and each published plan's outcome. */
function walkCalls(name, candles, stride, costPct) {
  const ctx = computeContext(candles);
  const n = candles.close.length;
  const split = splitIndex(n);
  const rows = [];
  for (let i = Math.min(WARMUP, Math.floor(n / 3)); i < n - 1; i += stride) {
    const a = analyze(ctx, { asOf: i, plan: { costPct } });
    const row = { i, time: candles.time[i], part: i < split ? 'train' : 'test', action: a.signal.action, call: null };
    if (a.signal.action !== 'hold' && a.zone.direction !== null) {
      const sim = simulatePlan(a.zone, candles, { fromIndex: i + 1, costPct });
      row.call = {
        confidence: a.signal.confidence,
        expected_r: a.signal.edge?.expected_r ?? Number.NaN,
        outcome: sim.outcome,
        realized_r: sim.realized_r,
      };
    }
    rows.push(row);
  }
  return { name, rows };
}

const closedOutcome = (o) => o === 'tp_hit' || o === 'stopped_out' || o === 'time_stopped';
const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const f = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '-');

function quantile(xs, q) {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const k = (s.length - 1) * q;
  const lo = Math.floor(k);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (k - lo);
}

/** 95% interval of the mean by a seeded moving-block bootstrap (blocks of 20 consecutive values). */
function blockInterval(xs, seed) {
  if (xs.length < 2) return [Number.NaN, Number.NaN];
  const rnd = mulberry32(seed);
  // blocks of 20, shorter for few plans (a quarter of them), so a resample can differ from the sample
  const b = Math.max(1, Math.min(BLOCK, Math.floor(xs.length / 4)));
  const means = [];
  for (let r = 0; r < RESAMPLES; r++) {
    let s = 0;
    let k = 0;
    while (k < xs.length) {
      const start = Math.floor(rnd() * (xs.length - b + 1));
      for (let j = 0; j < b && k < xs.length; j++, k++) s += xs[start + j];
    }
    means.push(s / xs.length);
  }
  return [quantile(means, 0.025), quantile(means, 0.975)];
}

/** The figures of one part of a walked series. */
function figures(rows, seed) {
  const years = rows.length > 1 ? (rows[rows.length - 1].time - rows[0].time) / YEAR_MS : Number.NaN;
  let flips = 0;
  for (let j = 1; j < rows.length; j++) if (rows[j].action !== rows[j - 1].action) flips++;
  const calls = rows.filter((r) => r.call !== null);
  const closed = calls.filter((r) => closedOutcome(r.call.outcome) && r.call.realized_r !== null);
  const realized = closed.map((r) => r.call.realized_r);
  const [lo, hi] = blockInterval(realized, seed);
  const conf = calls.map((r) => r.call.confidence);
  return {
    analyses: rows.length,
    years,
    calls: calls.length,
    callsPerYear: calls.length / years,
    closed: closed.length,
    realized: mean(realized),
    lo,
    hi,
    expected: mean(closed.map((r) => r.call.expected_r)),
    p10: quantile(conf, 0.1),
    p90: quantile(conf, 0.9),
    flipsPerYear: flips / years,
  };
}

/** The EVALUATION.md section of issue 40, as markdown lines. */
export function signalEdgeSection(series) {
  const out = [];
  const walked = [];
  for (const s of series) {
    const assetClass = CLASS_OF[s.name] ?? 'stocks';
    walked.push({ ...walkCalls(s.name, s.candles, s.stride, roundTripCostPct({ assetClass })), assetClass });
  }
  const controls = [1, 2, 3].map((seed) => ({
    ...walkCalls(`control ${seed}`, controlSeries(4000 + seed), 1, roundTripCostPct({ assetClass: 'stocks' })),
    assetClass: 'stocks',
  }));
  out.push('## Calls with an edge (issue 40)');
  out.push('');
  out.push(
    "Walk-forward as above, but each series at its asset class's round trip (stocks 0.05%, also for the index; coins 0.22%), and a call published only when its plan's expected R after that cost is above 0 at the lower end of its 90% interval (`SIGNAL_MIN_EXPECTED_R`; the interval is the Beta posterior of the calibration's training plans). Calls per year and flips per year (changes of the action, holds included, between consecutive analysed candles) are per calendar year of the part; realized R is over the published plans entered and closed, with a 95% moving-block bootstrap interval (blocks of 20 plans, a quarter of the plans when fewer than 80; 1000 seeded resamples); expected R is the mean `edge.expected_r` of the same plans; confidence p10-p90 is over every published call. Controls: three driftless random walks (4000 daily candles, 2% daily volatility, seeds 4001-4003) at the stocks' cost: no call should survive there.",
  );
  out.push('');
  out.push(
    '| series | part | analyses | years | published calls | per year | closed | mean realized R [95%] | mean expected R | confidence p10-p90 | flips per year |',
  );
  out.push('|---|---|---:|---:|---:|---:|---:|---|---:|---|---:|');
  let seed = 40;
  for (const w of [...walked, ...controls]) {
    for (const part of ['train', 'test']) {
      const x = figures(
        w.rows.filter((r) => r.part === part),
        ++seed,
      );
      out.push(
        `| ${w.name} | ${part === 'train' ? 'training' : 'held out'} | ${x.analyses} | ${f(x.years, 2)} | ${x.calls} | ${f(x.callsPerYear, 1)} | ${x.closed} | ${f(x.realized)} [${f(x.lo)}, ${f(x.hi)}] | ${f(x.expected)} | ${x.calls ? `${f(x.p10)}-${f(x.p90)}` : '-'} | ${f(x.flipsPerYear, 1)} |`,
      );
    }
  }
  const all = walked.flatMap((w) => w.rows);
  const published = all.filter((r) => r.call !== null).length;
  const controlCalls = controls.flatMap((w) => w.rows).filter((r) => r.call !== null).length;
  const controlAnalyses = controls.reduce((n, w) => n + w.rows.length, 0);
  out.push('');
  out.push(
    `Published calls: ${published} of ${all.length} analyses of the real series (${f((100 * published) / all.length, 2)}%); the rest are Holds. On the random controls: ${controlCalls} of ${controlAnalyses} analyses (${f((100 * controlCalls) / controlAnalyses, 2)}%).`,
  );
  const closedCalls = all.filter((r) => r.call !== null && closedOutcome(r.call.outcome) && r.call.realized_r !== null);
  const exp = mean(closedCalls.map((r) => r.call.expected_r));
  const real = mean(closedCalls.map((r) => r.call.realized_r));
  out.push('');
  out.push(
    `What it says, plainly: on today's data the gate leaves almost only Holds, and the few calls it publishes are no better than the random controls, where ${f((100 * controlCalls) / controlAnalyses, 2)}% of analyses still publish a call. The expected R of the published calls (mean ${f(exp)} R over ${closedCalls.length} closed) against their realized R (mean ${f(real)} R): the calibrated probability is conditioned on the plan's geometry (its break-even after costs, session 14), and a plan paying 1.5 R or more reaches target 1 first far less often than its break-even asks, so the few calls left are those whose target 1 lies furthest; with so few closed, the realized figure cannot confirm or refute their expected R, and the track record is where to check it. Flips per year on the daily series stay far below 12 because nearly every analysis is a Hold, not because of a holding rule (none is shipped yet).`,
  );
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const series = loadSeries();
  if (!series) {
    console.error('signal-edge needs the real series in ../shared/data; none found.');
    process.exit(2);
  }
  const t0 = performance.now();
  console.log(signalEdgeSection(series).join('\n'));
  console.error(`signal-edge: ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
