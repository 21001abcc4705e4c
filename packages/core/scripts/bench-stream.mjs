// Streaming cost of every indicator class: ns per `update` and per `replace`, in one process,
// for one or more builds of core side by side (to compare a change against the build before it:
// copy `dist` away first, then pass both). Every class is warmed up before any is measured, as
// in an application that runs many indicators, so shared code sees all of them.
// `--only RSI,EMA` measures (and warms up) just those classes, so shared code sees only them.
// Usage: node scripts/bench-stream.mjs [--n 200000] [--runs 7] [--only A,B] [--markdown] [dist ...]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return typeof dflt === 'number' ? Number(v) : v;
};
const N = opt('n', 200_000);
const RUNS = opt('runs', 7);
const only = opt('only', '');
const markdown = args.includes('--markdown');
const dists = args.filter((a) => !a.startsWith('--'));
if (dists.length === 0) dists.push(new URL('../dist', import.meta.url).pathname);
const builds = [];
for (const d of dists) builds.push(await import(pathToFileURL(resolve(d, 'index.js')).href));

// Deterministic candles: a geometric random walk (mulberry32), valid OHLC, hourly times.
let seed = 7;
const rnd = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const values = new Float64Array(N);
const candles = [];
let price = 100;
for (let i = 0; i < N; i++) {
  const open = price;
  price *= 1 + (rnd() - 0.5) * 0.02;
  const high = Math.max(open, price) * (1 + rnd() * 0.005);
  const low = Math.min(open, price) * (1 - rnd() * 0.005);
  values[i] = price;
  candles.push({ time: 1.7e12 + i * 3_600_000, open, high, low, close: price, volume: 1 + rnd() * 1000 });
}

const onValues = [
  'SMA',
  'EMA',
  'WMA',
  'DEMA',
  'TEMA',
  'RMA',
  'HMA',
  'RSI',
  'MACD',
  'BBands',
  'StdDev',
  'ROC',
  'Mom',
  'StochRSI',
  'LinRegSlope',
];
const onCandles = [
  'ATR',
  'TrueRange',
  'NATR',
  'ADX',
  'DMI',
  'OBV',
  'AD',
  'ADOsc',
  'AO',
  'Aroon',
  'CCI',
  'CMF',
  'Donchian',
  'Fractals',
  'Ichimoku',
  'Keltner',
  'MFI',
  'PivotPoints',
  'SAR',
  'Stoch',
  'SuperTrend',
  'UltOsc',
  'VWAP',
  'VWMA',
  'WillR',
];
const names = [...onValues, ...onCandles].filter((n) => only === '' || only.split(',').includes(n));
const inputOf = (name) => (onValues.includes(name) ? values : candles);

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
let sink = 0;

// One freshly compiled loop per (build, class, operation), as in a user's program, where the loop
// that feeds an indicator sees that one class: the loop's own call site stays monomorphic, so what
// is measured is the indicator's code (and whatever it shares with the others), not the harness.
const loops = new Map();
function loop(core, name, op) {
  const key = `${builds.indexOf(core)}:${name}:${op}`;
  let f = loops.get(key);
  if (f === undefined) {
    const body =
      op === 'update'
        ? 'for (let i = 0; i < n; i++) s.update(input[i]);'
        : 's.update(input[0]); for (let i = 1; i < n; i++) s.replace(input[i]);';
    // The key in the source keeps V8's compilation cache from handing every loop one shared
    // function (and its shared, soon megamorphic, feedback).
    f = new Function('s', 'input', 'n', `// ${key}\n${body}`);
    loops.set(key, f);
  }
  return f;
}

function time(core, name, op, n) {
  const s = new core[name]();
  const f = loop(core, name, op);
  const t0 = cpuMs();
  f(s, inputOf(name), n);
  const ns = ((cpuMs() - t0) * 1e6) / n;
  const v = s.value;
  sink += typeof v === 'number' ? v : 1;
  return ns;
}
const updates = (core, name, n) => time(core, name, 'update', n);
const replaces = (core, name, n) => time(core, name, 'replace', n);

for (const core of builds) {
  for (const name of names) {
    updates(core, name, 20_000);
    replaces(core, name, 20_000);
  }
}

const rows = [];
for (const name of names) {
  const up = builds.map(() => []);
  const rep = builds.map(() => []);
  // No gc() between runs: the CPU time of the process includes V8's helper threads, which go on
  // sweeping a full collection's garbage while the next run is being timed.
  for (let r = 0; r < RUNS; r++) {
    builds.forEach((core, b) => {
      up[b].push(updates(core, name, N));
    });
  }
  for (let r = 0; r < RUNS; r++) {
    builds.forEach((core, b) => {
      rep[b].push(replaces(core, name, N >> 2));
    });
  }
  rows.push([name, ...up.map(median), ...rep.map(median)]);
}

const f = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const labels = dists.map((_, i) => (dists.length === 1 ? 'ns' : `#${i + 1}`));
const head = ['class', ...labels.map((l) => `update ${l}`), ...labels.map((l) => `replace ${l}`)];
if (builds.length === 2) head.push('update #2/#1');
const table = rows.map((r) => {
  const cells = [r[0], ...r.slice(1).map(f)];
  if (builds.length === 2) cells.push(`${(r[2] / r[1]).toFixed(2)}x`);
  return cells;
});
if (builds.length === 2) {
  const ratios = rows.map((r) => r[2] / r[1]);
  const geo = Math.exp(ratios.reduce((a, x) => a + Math.log(x), 0) / ratios.length);
  table.push(['geometric mean', ...head.slice(1, -1).map(() => ''), `${geo.toFixed(2)}x`]);
}

console.log(
  `${N.toLocaleString('en')} updates (${(N >> 2).toLocaleString('en')} replaces), median of ${RUNS} runs, CPU ns per call; Node ${process.version}`,
);
for (const [i, d] of dists.entries()) console.log(`#${i + 1}: ${d}`);
if (markdown) {
  console.log(`| ${head.join(' | ')} |`);
  console.log(`|${head.map(() => '---').join('|')}|`);
  for (const r of table) console.log(`| ${r.join(' | ')} |`);
} else {
  const w = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (r) => r.map((x, i) => (i === 0 ? x.padEnd(w[i]) : x.padStart(w[i]))).join('  ');
  console.log(line(head));
  for (const r of table) console.log(line(r));
}
if (sink === 42) console.log('');
