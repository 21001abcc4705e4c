// pnpm --filter @marketlens/core eval
// Walk-forward evaluation on the real series in ../shared/data: at each candle the analysis
// reads only the candles up to it, publishes its plan, and the plan is simulated on the candles
// after it with the 0.20% round-trip cost. Prints outcome counts, mean realized R, a calibration
// table (signal confidence bucket against hit rate) and the bounce rate at detected levels
// against a shuffled-level null. Deterministic: the same numbers on every run.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze, computeContext, simulatePlan } from '../dist/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = process.env.MARKETLENS_SHARED_DATA ?? resolve(here, '../../../../shared/data');
if (!existsSync(dataDir)) {
  console.error(`eval needs the real series in ${dataDir} (the ../shared folder beside the repo); none found.`);
  process.exit(2);
}

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
const csvRows = (file, toRow) =>
  readFileSync(join(dataDir, file), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => toRow(l.split(',')));
const yahoo = (f) => [Date.parse(`${f[0]}T00:00:00Z`), +f[1], +f[2], +f[3], +f[4], +f[6]];
const series = [
  { name: 'nvda d1', candles: columns(csvRows('nvda-1999-2014-d1.csv', yahoo)), stride: 1 },
  { name: 'orcl d1', candles: columns(csvRows('orcl-1995-2014-d1.csv', yahoo)), stride: 1 },
  {
    name: 'index m5',
    candles: columns(
      csvRows('index-2006-m5.csv', (f) => [Date.parse(`${f[0]}T${f[1]}Z`), +f[2], +f[3], +f[4], +f[5], +f[6]]),
    ),
    stride: 1,
  },
  {
    name: 'crypto m1',
    candles: columns(JSON.parse(readFileSync(join(dataDir, 'crypto-pair-m1.json'), 'utf8'))),
    stride: 2,
  },
  {
    name: 'xrp perp h1',
    candles: columns(JSON.parse(readFileSync(join(dataDir, 'xrp-usdt-perp-h1.json'), 'utf8'))),
    stride: 1,
  },
];

const WARMUP = 210;
const OUTCOMES = ['pending', 'entered', 'tp_hit', 'stopped_out', 'time_stopped', 'expired'];
const BUCKETS = [0, 0.2, 0.4, 0.6, 0.8, 1.0001];

/** mulberry32, seeded: the shuffled-level null is reproducible. */
function prng(seed) {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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

const all = {
  counts: Object.fromEntries(OUTCOMES.map((o) => [o, 0])),
  r: [],
  buckets: BUCKETS.slice(0, -1).map(() => ({ n: 0, hits: 0, r: 0 })),
  plans: 0,
  analyses: 0,
};
const perSeries = [];
const levelRows = [];
const t0 = performance.now();
for (const s of perSeriesInput()) {
  const { candles: c } = s;
  const ctx = computeContext(c);
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0]));
  const rs = [];
  const tests = { support: [], resistance: [] };
  let analyses = 0;
  for (let i = Math.min(WARMUP, Math.floor(c.close.length / 3)); i < c.close.length - 1; i += s.stride) {
    const a = analyze(ctx, { asOf: i });
    analyses++;
    // levels: record the nearest support/resistance and its distance in ATR for the null
    for (const kind of ['support', 'resistance']) {
      const z = kind === 'support' ? a.levels.nearest_support : a.levels.nearest_resistance;
      if (z && a.levels.atr) tests[kind].push({ i, low: z.low, high: z.high, atr: a.levels.atr, mark: a.levels.mark });
    }
    const plan = a.zone;
    if (!plan.direction) continue;
    const sim = simulatePlan(plan, c, { fromIndex: i + 1 });
    counts[sim.outcome]++;
    all.counts[sim.outcome]++;
    all.plans++;
    if (sim.realized_r != null && ['tp_hit', 'stopped_out', 'time_stopped'].includes(sim.outcome)) {
      rs.push(sim.realized_r);
      all.r.push(sim.realized_r);
      const b = BUCKETS.findIndex((x, k) => a.signal.confidence >= x && a.signal.confidence < BUCKETS[k + 1]);
      const bucket = all.buckets[b];
      bucket.n++;
      bucket.hits += sim.outcome === 'tp_hit' ? 1 : 0;
      bucket.r += sim.realized_r;
    }
  }
  all.analyses += analyses;
  perSeries.push({ name: s.name, analyses, counts, rs });
  // bounce rate: detected levels against the same zones shifted to a distance drawn from another
  // time's detected distance (a permutation of distances in ATR units)
  const rnd = prng(12345);
  for (const kind of ['support', 'resistance']) {
    const ev = tests[kind];
    const dist = ev.map((e) => ((e.low + e.high) / 2 - e.mark) / e.atr);
    for (let k = dist.length - 1; k > 0; k--) {
      const j = Math.floor(rnd() * (k + 1));
      [dist[k], dist[j]] = [dist[j], dist[k]];
    }
    const tally = (zones) => {
      const t = { bounce: 0, break: 0, none: 0, untested: 0 };
      for (const z of zones) t[levelTest(c, z.i, kind, z.low, z.high, z.atr)]++;
      return t;
    };
    const real = tally(ev);
    const nullZones = ev.map((e, k) => {
      const half = (e.high - e.low) / 2;
      const mid = e.mark + dist[k] * e.atr;
      return { ...e, low: mid - half, high: mid + half };
    });
    const shuffled = tally(nullZones);
    levelRows.push({ series: s.name, kind, real, shuffled });
  }
}
const seconds = (performance.now() - t0) / 1000;

function* perSeriesInput() {
  yield* series;
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const f = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : '-');

console.log('## Walk-forward plans (0.20% round-trip cost)\n');
console.log(`| series | analyses | plans | ${OUTCOMES.join(' | ')} | closed | mean realized R | hit rate |`);
console.log(`|---|---:|---:|${OUTCOMES.map(() => '---:').join('|')}|---:|---:|---:|`);
for (const p of [...perSeries, { name: '**all**', analyses: all.analyses, counts: all.counts, rs: all.r }]) {
  const plans = OUTCOMES.reduce((s, o) => s + p.counts[o], 0);
  const closed = p.rs.length;
  console.log(
    `| ${p.name} | ${p.analyses} | ${plans} | ${OUTCOMES.map((o) => p.counts[o]).join(' | ')} | ${closed} | ${f(mean(p.rs))} | ${pct(p.counts.tp_hit, closed)} |`,
  );
}
console.log('\nhit rate = tp_hit / closed (closed = tp_hit + stopped_out + time_stopped).\n');
console.log('## Calibration: signal confidence against outcome (closed plans, all series)\n');
console.log('| confidence | plans | hit rate | mean realized R |');
console.log('|---|---:|---:|---:|');
all.buckets.forEach((b, k) => {
  console.log(
    `| ${BUCKETS[k].toFixed(1)}-${Math.min(1, BUCKETS[k + 1]).toFixed(1)} | ${b.n} | ${pct(b.hits, b.n)} | ${f(b.n ? b.r / b.n : Number.NaN)} |`,
  );
});
console.log('\n## Bounce rate at detected levels against a shuffled-level null\n');
console.log(
  'A test: price reaches the nearest zone within 10 candles; bounce: it then moves 1 ATR away from the zone before closing 0.5 ATR through it. Null: the same zones moved to a distance (in ATR) drawn from another time (seeded permutation).\n',
);
console.log(
  '| series | side | detected: tested | bounce | break | bounce rate | null: tested | bounce | break | bounce rate |',
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of levelRows) {
  const t = (x) => x.bounce + x.break + x.none;
  console.log(
    `| ${r.series} | ${r.kind} | ${t(r.real)} | ${r.real.bounce} | ${r.real.break} | ${pct(r.real.bounce, t(r.real))} | ${t(r.shuffled)} | ${r.shuffled.bounce} | ${r.shuffled.break} | ${pct(r.shuffled.bounce, t(r.shuffled))} |`,
  );
}
console.log(
  `\n${all.analyses} analyses in ${seconds.toFixed(1)} s (${((seconds * 1000) / all.analyses).toFixed(2)} ms each, shared indicator context).`,
);
