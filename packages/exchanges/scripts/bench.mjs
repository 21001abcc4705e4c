// pnpm --filter @marketlens/exchanges bench: the simulated venue and the candle-file importer
// against peers measured in the same process.
//
// 1. 1,000 d1 candles from the simulated venue (warm) vs reading the same 1,000 candles from a
//    JSON file (readFileSync + JSON.parse + columns) and vs a naive generator that walks the
//    daily path from genesis on every call. Target: under 1 ms.
// 2. Importing a 1,000,000-row CSV (generated to a temp file) with importCandleFile vs
//    csv-parse's streaming parser (engine: 'csv-parse') vs a naive readFileSync + split loader.
//    Target: under 2 s, memory bounded by streaming (peak heap growth ~ the output columns).
//
// Usage: node --expose-gc scripts/bench.mjs [--rows 1000000] [--runs 5]
// MARKETLENS_EXCHANGES_DIST overrides the module to load (default ../dist/index.js).
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const arg = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const ROWS = arg('rows', 1_000_000);
const RUNS = arg('runs', 5);
const target = process.env.MARKETLENS_EXCHANGES_DIST
  ? pathToFileURL(process.env.MARKETLENS_EXCHANGES_DIST).href
  : new URL('../dist/index.js', import.meta.url).href;
const lib = await import(target);
const { createSimulatedVenue, importCandleFile } = lib;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const gc = () => globalThis.gc?.();
const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`);
const dir = mkdtempSync(join(tmpdir(), 'marketlens-bench-'));

// ---------------------------------------------------------------- 1. simulated venue
{
  const NOW = Date.UTC(2025, 10, 21, 13, 37, 12);
  const venue = createSimulatedVenue({ now: () => NOW });
  const request = { asset_id: 'bitcoin', timeframe: 'd1', limit: 1000 };
  let t0 = performance.now();
  const first = await venue.candles(request);
  const cold = performance.now() - t0;

  const timeIt = async (fn, reps) => {
    const samples = [];
    for (let r = 0; r < RUNS; r++) {
      const s = performance.now();
      for (let i = 0; i < reps; i++) await fn();
      samples.push((performance.now() - s) / reps);
    }
    return median(samples);
  };
  const ours = await timeIt(() => venue.candles(request), 200);

  // Peer A: the same 1,000 candles from a JSON file of ccxt arrays.
  const rows = [];
  for (let i = 0; i < first.candles.time.length; i++) {
    const c = first.candles;
    rows.push([c.time[i], c.open[i], c.high[i], c.low[i], c.close[i], c.volume[i]]);
  }
  const jsonPath = join(dir, 'd1.json');
  writeFileSync(jsonPath, JSON.stringify(rows));
  const readJson = async () => {
    const arr = JSON.parse(readFileSync(jsonPath, 'utf8'));
    const n = arr.length;
    const out = {
      time: new Float64Array(n),
      open: new Float64Array(n),
      high: new Float64Array(n),
      low: new Float64Array(n),
      close: new Float64Array(n),
      volume: new Float64Array(n),
    };
    for (let i = 0; i < n; i++) {
      const r = arr[i];
      out.time[i] = r[0];
      out.open[i] = r[1];
      out.high[i] = r[2];
      out.low[i] = r[3];
      out.close[i] = r[4];
      out.volume[i] = r[5];
    }
    return out;
  };
  const json = await timeIt(readJson, 200);

  // Peer B: a naive generator that walks a GARCH-like daily path from genesis (2006) on every call.
  const naive = async () => {
    const days = Math.floor((NOW - Date.UTC(2006, 0, 2)) / 86_400_000) + 1;
    let s = 7;
    const rnd = () => {
      s = (s + 0x6d2b79f5) | 0;
      let t = Math.imul(s ^ (s >>> 15), 1 | s);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const n = 1000;
    const out = {
      time: new Float64Array(n),
      open: new Float64Array(n),
      high: new Float64Array(n),
      low: new Float64Array(n),
      close: new Float64Array(n),
      volume: new Float64Array(n),
    };
    let x = Math.log(95_000);
    let v = 0;
    for (let d = 0; d < days; d++) {
      const z = Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
      v = 0.96 * v + 0.1 * (Math.abs(z) - 0.8);
      const sig = 0.03 * Math.exp(0.5 * v);
      const o = Math.exp(x);
      x += sig * z - 0.005 * (x - Math.log(95_000));
      const c = Math.exp(x);
      const i = d - (days - n);
      if (i >= 0) {
        out.time[i] = d;
        out.open[i] = o;
        out.close[i] = c;
        out.high[i] = Math.max(o, c) * (1 + sig * rnd());
        out.low[i] = Math.min(o, c) * (1 - sig * rnd());
        out.volume[i] = 1000 * (1 + Math.abs(z));
      }
    }
    return out;
  };
  const walk = await timeIt(naive, 50);

  const h1 = await timeIt(() => venue.candles({ asset_id: 'ethereum', timeframe: 'h1', limit: 1000 }), 20);
  const m5 = await timeIt(() => venue.candles({ asset_id: 'solana', timeframe: 'm5', limit: 1000 }), 20);
  t0 = performance.now();
  await venue.candles({ asset_id: 'stock-nvda', timeframe: 'h4', limit: 1000 });
  const h4Cold = performance.now() - t0;
  t0 = performance.now();
  await venue.tickers();
  const tickersCold = performance.now() - t0;
  const tickers = await timeIt(() => venue.tickers(), 3);
  const ticker = await timeIt(() => venue.ticker({ asset_id: 'bitcoin' }), 50);

  console.log('simulated venue (median of runs, warm unless noted)');
  console.log(
    `  1,000 d1 candles                 ${fmt(ours).padStart(9)}   target < 1 ms: ${ours < 1 ? 'met' : 'MISSED'}`,
  );
  console.log(
    `  peer: same candles from JSON     ${fmt(json).padStart(9)}   ratio ours/peer ${(ours / json).toFixed(2)}`,
  );
  console.log(
    `  peer: naive walk from genesis    ${fmt(walk).padStart(9)}   ratio ours/peer ${(ours / walk).toFixed(2)}`,
  );
  console.log(`  first call (walks 20 years, cold)${fmt(cold).padStart(9)}`);
  console.log(`  1,000 h1 candles                 ${fmt(h1).padStart(9)}`);
  console.log(`  1,000 m5 candles                 ${fmt(m5).padStart(9)}`);
  console.log(`  1,000 h4 candles (cold)          ${fmt(h4Cold).padStart(9)}`);
  console.log(`  one ticker                       ${fmt(ticker).padStart(9)}`);
  console.log(
    `  all ${String((await venue.tickers()).length).padEnd(3)} tickers (cold / warm) ${fmt(tickersCold)} / ${fmt(tickers)}`,
  );
}

// ---------------------------------------------------------------- 2. CSV import
{
  const csvPath = join(dir, 'big.csv');
  await new Promise((resolve, reject) => {
    const out = createWriteStream(csvPath);
    out.on('error', reject);
    out.on('finish', resolve);
    let p = 100;
    let s = 1;
    const rnd = () => {
      s = (s * 16807) % 2147483647;
      return s / 2147483647;
    };
    let buf = 'time,open,high,low,close,volume\n';
    for (let i = 0; i < ROWS; i++) {
      const o = p;
      p *= 1 + (rnd() - 0.5) * 0.01;
      buf += `${1_600_000_000_000 + i * 60_000},${o.toFixed(4)},${(Math.max(o, p) * 1.001).toFixed(4)},${(Math.min(o, p) * 0.999).toFixed(4)},${p.toFixed(4)},${(rnd() * 1000).toFixed(3)}\n`;
      if (buf.length > 1 << 20) {
        out.write(buf);
        buf = '';
      }
    }
    out.end(buf);
  });
  const size = statSync(csvPath).size;

  const measure = async (fn) => {
    const times = [];
    let peak = 0;
    let rows = 0;
    for (let r = 0; r < Math.min(RUNS, 3); r++) {
      gc();
      const base = process.memoryUsage();
      let maxHeap = 0;
      const sampler = setInterval(() => {
        const m = process.memoryUsage();
        maxHeap = Math.max(maxHeap, m.heapUsed + m.arrayBuffers - base.heapUsed - base.arrayBuffers);
      }, 5);
      const t0 = performance.now();
      const res = await fn();
      times.push(performance.now() - t0);
      clearInterval(sampler);
      const m = process.memoryUsage();
      maxHeap = Math.max(maxHeap, m.heapUsed + m.arrayBuffers - base.heapUsed - base.arrayBuffers);
      peak = Math.max(peak, maxHeap);
      rows = res.rows ?? res.time.length;
    }
    return { ms: median(times), peak, rows };
  };

  const ours = await measure(() => importCandleFile(csvPath));
  const csvParse = await measure(() => importCandleFile(csvPath, { engine: 'csv-parse' }));
  const naive = await measure(async () => {
    const lines = readFileSync(csvPath, 'utf8').split('\n');
    const n = lines.length - 2;
    const out = {
      time: new Float64Array(n),
      open: new Float64Array(n),
      high: new Float64Array(n),
      low: new Float64Array(n),
      close: new Float64Array(n),
      volume: new Float64Array(n),
    };
    for (let i = 0; i < n; i++) {
      const f = lines[i + 1].split(',');
      out.time[i] = Number(f[0]);
      out.open[i] = Number(f[1]);
      out.high[i] = Number(f[2]);
      out.low[i] = Number(f[3]);
      out.close[i] = Number(f[4]);
      out.volume[i] = Number(f[5]);
    }
    return out;
  });
  const mb = (b) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  const columns = ours.rows * 6 * 8;
  console.log(`\ncsv import: ${ours.rows.toLocaleString('en')} rows, ${mb(size)} file, output columns ${mb(columns)}`);
  console.log(
    `  importCandleFile                 ${fmt(ours.ms).padStart(9)}   peak heap growth ${mb(ours.peak)}   target < 2 s: ${ours.ms < 2000 ? 'met' : 'MISSED'}`,
  );
  console.log(
    `  peer: csv-parse streaming        ${fmt(csvParse.ms).padStart(9)}   peak heap growth ${mb(csvParse.peak)}   ratio ours/peer ${(ours.ms / csvParse.ms).toFixed(2)}`,
  );
  console.log(
    `  peer: readFileSync + split       ${fmt(naive.ms).padStart(9)}   peak heap growth ${mb(naive.peak)}   ratio ours/peer ${(ours.ms / naive.ms).toFixed(2)}`,
  );
}

rmSync(dir, { recursive: true, force: true });
