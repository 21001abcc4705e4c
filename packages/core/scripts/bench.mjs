// pnpm bench: our kernels against a plain hand-written loop of the same maths and against
// technicalindicators, trading-signals, @ixjb94/indicators and indicatorts, in one process on
// 1,000,000 candles. Prints medians (ms) and ratios, and streaming ns per update.
// Usage: node --expose-gc scripts/bench.mjs [--n 1000000] [--runs 7] [--markdown] [--isolate]
//   [--only sma,adx] [--skip technicalindicators] [--dist path/to/dist] [--json]
// --isolate runs each case (and each streaming row) in a fresh worker thread, so V8 has seen
// nothing else when it compiles the kernel; without it every case runs in one isolate, in order.
// --json prints the rows as one JSON line (for scripts/bench-runs.mjs).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import ixjb from '@ixjb94/indicators';
import * as indicatorts from 'indicatorts';
import ti from 'technicalindicators';
import * as tsig from 'trading-signals';

const args = isMainThread ? process.argv.slice(2) : workerData.args;
const arg = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const strArg = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const N = arg('n', 1_000_000);
const RUNS = arg('runs', 7);
const markdown = args.includes('--markdown');
const isolate = isMainThread && args.includes('--isolate');
const json = args.includes('--json');
const only = strArg('only', '')
  .split(',')
  .filter((x) => x !== '');
const skip = new Set(
  strArg('skip', '')
    .split(',')
    .filter((x) => x !== ''),
);
const distDir = strArg('dist', new URL('../dist', import.meta.url).pathname);
const core = await import(pathToFileURL(resolve(distDir, 'index.js')).href);
const selected = (name) => only.length === 0 || only.some((o) => name.toLowerCase().startsWith(o.toLowerCase()));

// Deterministic candles: a geometric random walk (mulberry32), valid OHLC.
function candles(n) {
  let s = 42;
  const rnd = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
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
    p = Math.max(1, p * (1 + (rnd() - 0.5) * 0.02));
    c.time[i] = 1.6e12 + i * 60_000;
    c.open[i] = o;
    c.close[i] = p;
    c.high[i] = Math.max(o, p) * (1 + rnd() * 0.005);
    c.low[i] = Math.min(o, p) * (1 - rnd() * 0.005);
    c.volume[i] = 1000 + rnd() * 1000;
  }
  return c;
}

const C = candles(N);
const A = {
  high: Array.from(C.high),
  low: Array.from(C.low),
  close: Array.from(C.close),
  volume: Array.from(C.volume),
};
const ix = new ixjb.IndicatorsSync();
const OUT_OURS = new Float64Array(N);
const OUT_PLAIN = new Float64Array(N);
// Five reused columns each for ours and the plain loop ("BBands into out").
const bandColumns = () => ({
  upper: new Float64Array(N),
  middle: new Float64Array(N),
  lower: new Float64Array(N),
  percentB: new Float64Array(N),
  width: new Float64Array(N),
});
const BANDS_OURS = bandColumns();
const BANDS_PLAIN = bandColumns();

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

// CPU time of this process (user + system), in ms: steadier than wall time on a shared machine.
function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

let sink = 0;
function time(fn) {
  fn(); // warm-up
  fn();
  const t = [];
  for (let r = 0; r < RUNS; r++) {
    globalThis.gc?.();
    const t0 = cpuMs();
    const out = fn();
    t.push(cpuMs() - t0);
    sink += typeof out === 'object' && out !== null && 'length' in out ? out.length : 1;
  }
  return median(t);
}

// ---- plain single-pass loops of the same maths (no validation) ----
const plain = {
  sma(x, p) {
    const n = x.length;
    const o = new Float64Array(n).fill(Number.NaN);
    let s = 0;
    for (let i = 0; i < n; i++) {
      s += x[i];
      if (i >= p) s -= x[i - p];
      if (i >= p - 1) o[i] = s / p;
    }
    return o;
  },
  // The same loop writing into an array the caller reuses (no allocation, pages already touched).
  smaInto(x, p, o) {
    const n = x.length;
    o.fill(Number.NaN, 0, p - 1);
    let s = 0;
    for (let i = 0; i < n; i++) {
      s += x[i];
      if (i >= p) s -= x[i - p];
      if (i >= p - 1) o[i] = s / p;
    }
    return o;
  },
  // A fresh column filled with NaN (as the other allocating loops), then emaInto's loop.
  ema(x, p) {
    return plain.emaInto(x, p, new Float64Array(x.length).fill(Number.NaN));
  },
  // The loop, writing into an array the caller reuses, as smaInto.
  emaInto(x, p, o) {
    const n = x.length;
    o.fill(Number.NaN, 0, p - 1);
    const k = 2 / (p + 1);
    let s = 0;
    for (let i = 0; i < p; i++) s += x[i];
    let e = s / p;
    o[p - 1] = e;
    for (let i = p; i < n; i++) {
      e = (x[i] - e) * k + e;
      o[i] = e;
    }
    return o;
  },
  wma(x, p) {
    const n = x.length;
    const o = new Float64Array(n).fill(Number.NaN);
    const d = (p * (p + 1)) / 2;
    for (let i = p - 1; i < n; i++) {
      let s = 0;
      for (let j = 0; j < p; j++) s += x[i - p + 1 + j] * (j + 1);
      o[i] = s / d;
    }
    return o;
  },
  rsi(x, p) {
    const n = x.length;
    const o = new Float64Array(n).fill(Number.NaN);
    let g = 0;
    let l = 0;
    for (let i = 1; i <= p; i++) {
      const d = x[i] - x[i - 1];
      if (d > 0) g += d;
      else l -= d;
    }
    g /= p;
    l /= p;
    o[p] = g + l === 0 ? 50 : (100 * g) / (g + l);
    for (let i = p + 1; i < n; i++) {
      const d = x[i] - x[i - 1];
      g = (g * (p - 1) + (d > 0 ? d : 0)) / p;
      l = (l * (p - 1) + (d < 0 ? -d : 0)) / p;
      o[i] = g + l === 0 ? 50 : (100 * g) / (g + l);
    }
    return o;
  },
  atr(c, p) {
    const { high: h, low: lo, close: cl } = c;
    const n = cl.length;
    const o = new Float64Array(n).fill(Number.NaN);
    let a = 0;
    for (let i = 1; i < n; i++) {
      const tr = Math.max(h[i], cl[i - 1]) - Math.min(lo[i], cl[i - 1]);
      if (i <= p) {
        a += tr;
        if (i === p) o[i] = a /= p;
      } else {
        a = (a * (p - 1) + tr) / p;
        o[i] = a;
      }
    }
    return o;
  },
  // A fresh column, every value written (its head NaN), then the loop of adxInto.
  adx: (c, p) => plain.adxInto(c, p, new Float64Array(c.close.length).fill(Number.NaN)),
  // The same loop writing into an array the caller reuses, as smaInto.
  adxInto(c, p, o) {
    const { high: h, low: lo, close: cl } = c;
    const n = cl.length;
    o.fill(Number.NaN, 0, 2 * p - 1);
    let pdm = 0;
    let mdm = 0;
    let tr = 0;
    let adx = 0;
    for (let i = 1; i < n; i++) {
      const up = h[i] - h[i - 1];
      const dn = lo[i - 1] - lo[i];
      const p1 = up > dn && up > 0 ? up : 0;
      const m1 = dn > up && dn > 0 ? dn : 0;
      const t = Math.max(h[i], cl[i - 1]) - Math.min(lo[i], cl[i - 1]);
      if (i < p) {
        pdm += p1;
        mdm += m1;
        tr += t;
        continue;
      }
      pdm = pdm - pdm / p + p1;
      mdm = mdm - mdm / p + m1;
      tr = tr - tr / p + t;
      const pdi = (100 * pdm) / tr;
      const mdi = (100 * mdm) / tr;
      const s = pdi + mdi;
      const dx = s === 0 ? 0 : (100 * Math.abs(pdi - mdi)) / s;
      const k = i - p; // dx index from 0
      if (k < p) {
        adx += dx;
        if (k === p - 1) o[i] = adx /= p;
      } else {
        adx = (adx * (p - 1) + dx) / p;
        o[i] = adx;
      }
    }
    return o;
  },
  bbands(x, p, k) {
    const n = x.length;
    const o = {
      upper: new Float64Array(n),
      middle: new Float64Array(n),
      lower: new Float64Array(n),
      percentB: new Float64Array(n),
      width: new Float64Array(n),
    };
    return plain.bbandsInto(x, p, k, o);
  },
  bbandsInto(x, p, k, o) {
    const n = x.length;
    const { upper: up, middle: mid, lower: lo, percentB: pb, width: w } = o;
    for (const c of [up, mid, lo, pb, w]) c.fill(Number.NaN, 0, p - 1);
    let s = 0;
    let s2 = 0;
    for (let i = 0; i < n; i++) {
      s += x[i];
      s2 += x[i] * x[i];
      if (i >= p) {
        s -= x[i - p];
        s2 -= x[i - p] * x[i - p];
      }
      if (i >= p - 1) {
        const m = s / p;
        const sd = Math.sqrt(Math.max(0, s2 / p - m * m));
        mid[i] = m;
        up[i] = m + k * sd;
        lo[i] = m - k * sd;
        pb[i] = sd === 0 ? 0.5 : (x[i] - lo[i]) / (up[i] - lo[i]);
        w[i] = m === 0 ? 0 : (up[i] - lo[i]) / m;
      }
    }
    return { upper: up, middle: mid, lower: lo, percentB: pb, width: w };
  },
  obv(c) {
    const { close: cl, volume: v } = c;
    const n = cl.length;
    const o = new Float64Array(n);
    let a = v[0];
    o[0] = a;
    for (let i = 1; i < n; i++) {
      if (cl[i] > cl[i - 1]) a += v[i];
      else if (cl[i] < cl[i - 1]) a -= v[i];
      o[i] = a;
    }
    return o;
  },
  macd(x, f, sl, sg) {
    const e1 = plain.ema(x, f);
    const e2 = plain.ema(x, sl);
    const n = x.length;
    const m = new Float64Array(n);
    for (let i = 0; i < n; i++) m[i] = e1[i] - e2[i];
    const sig = plain.ema(m.subarray(sl - 1), sg);
    return { macd: m, signal: sig };
  },
  roc(x, p) {
    const n = x.length;
    const o = new Float64Array(n).fill(Number.NaN);
    for (let i = p; i < n; i++) o[i] = (x[i] / x[i - p] - 1) * 100;
    return o;
  },
  willr(c, p) {
    const { high: h, low: lo, close: cl } = c;
    const n = cl.length;
    const o = new Float64Array(n).fill(Number.NaN);
    for (let i = p - 1; i < n; i++) {
      let hh = h[i];
      let ll = lo[i];
      for (let j = i - p + 1; j < i; j++) {
        if (h[j] > hh) hh = h[j];
        if (lo[j] < ll) ll = lo[j];
      }
      o[i] = hh === ll ? -50 : (-100 * (hh - cl[i])) / (hh - ll);
    }
    return o;
  },
  stoch(c, kp, ks, dp) {
    const { high: h, low: lo, close: cl } = c;
    const n = cl.length;
    const raw = new Float64Array(n).fill(Number.NaN);
    for (let i = kp - 1; i < n; i++) {
      let hh = h[i];
      let ll = lo[i];
      for (let j = i - kp + 1; j < i; j++) {
        if (h[j] > hh) hh = h[j];
        if (lo[j] < ll) ll = lo[j];
      }
      raw[i] = hh === ll ? 50 : (100 * (cl[i] - ll)) / (hh - ll);
    }
    const k = plain.sma(raw.subarray(kp - 1), ks);
    const d = plain.sma(k.subarray(ks - 1), dp);
    return { k, d };
  },
  // A fresh column, every value written (its head NaN), then the loop of cciInto.
  cci: (c, p) => plain.cciInto(c, p, new Float64Array(c.close.length).fill(Number.NaN)),
  // The same loop writing into an array the caller reuses (the typical prices stay a scratch column).
  cciInto(c, p, o) {
    const { high: h, low: lo, close: cl } = c;
    const n = cl.length;
    const tp = new Float64Array(n);
    for (let i = 0; i < n; i++) tp[i] = (h[i] + lo[i] + cl[i]) / 3;
    o.fill(Number.NaN, 0, p - 1);
    let s = 0;
    for (let i = 0; i < n; i++) {
      s += tp[i];
      if (i >= p) s -= tp[i - p];
      if (i >= p - 1) {
        const m = s / p;
        let md = 0;
        for (let j = i - p + 1; j <= i; j++) md += Math.abs(tp[j] - m);
        md /= p;
        o[i] = md === 0 ? 0 : (tp[i] - m) / (0.015 * md);
      }
    }
    return o;
  },
  mfi(c, p) {
    const { high: h, low: lo, close: cl, volume: v } = c;
    const n = cl.length;
    const o = new Float64Array(n).fill(Number.NaN);
    const pos = new Float64Array(n);
    const neg = new Float64Array(n);
    let prev = (h[0] + lo[0] + cl[0]) / 3;
    let ps = 0;
    let ns = 0;
    for (let i = 1; i < n; i++) {
      const tp = (h[i] + lo[i] + cl[i]) / 3;
      const f = tp * v[i];
      if (tp > prev) pos[i] = f;
      else if (tp < prev) neg[i] = f;
      prev = tp;
      ps += pos[i];
      ns += neg[i];
      if (i > p) {
        ps -= pos[i - p];
        ns -= neg[i - p];
      }
      if (i >= p) o[i] = ps + ns === 0 ? 50 : (100 * ps) / (ps + ns);
    }
    return o;
  },
};

// ---- cases: ours, plain, peers ----
const tsLoop =
  (Cls, ...ctor) =>
  (xs) => {
    const ind = new Cls(...ctor);
    for (let i = 0; i < xs.length; i++) ind.add(xs[i]);
    return ind;
  };
const tsLoopHLC =
  (Cls, ...ctor) =>
  () => {
    const ind = new Cls(...ctor);
    for (let i = 0; i < N; i++) ind.add({ high: A.high[i], low: A.low[i], close: A.close[i] });
    return ind;
  };

const cases = [
  {
    name: 'SMA(20)',
    ours: () => core.sma(C.close, { period: 20 }),
    plain: () => plain.sma(C.close, 20),
    peers: {
      technicalindicators: () => ti.SMA.calculate({ period: 20, values: A.close }),
      'trading-signals': () => tsLoop(tsig.SMA, 20)(A.close),
      '@ixjb94/indicators': () => ix.sma(A.close, 20),
      indicatorts: () => indicatorts.sma(A.close, { period: 20 }),
    },
  },
  {
    // The allocation-free form: `out` is an array the caller reuses (the peers have no such form).
    name: 'SMA(20) into out',
    ours: () => core.sma(C.close, { period: 20, out: OUT_OURS }),
    plain: () => plain.smaInto(C.close, 20, OUT_PLAIN),
    peers: {
      technicalindicators: () => ti.SMA.calculate({ period: 20, values: A.close }),
      'trading-signals': () => tsLoop(tsig.SMA, 20)(A.close),
      '@ixjb94/indicators': () => ix.sma(A.close, 20),
      indicatorts: () => indicatorts.sma(A.close, { period: 20 }),
    },
  },
  {
    name: 'EMA(20)',
    ours: () => core.ema(C.close, { period: 20 }),
    plain: () => plain.ema(C.close, 20),
    peers: {
      technicalindicators: () => ti.EMA.calculate({ period: 20, values: A.close }),
      'trading-signals': () => tsLoop(tsig.EMA, 20)(A.close),
      '@ixjb94/indicators': () => ix.ema(A.close, 20),
      indicatorts: () => indicatorts.ema(A.close, { period: 20 }),
    },
  },
  {
    // The allocation-free form, as "SMA(20) into out".
    name: 'EMA(20) into out',
    ours: () => core.ema(C.close, { period: 20, out: OUT_OURS }),
    plain: () => plain.emaInto(C.close, 20, OUT_PLAIN),
    peers: {
      technicalindicators: () => ti.EMA.calculate({ period: 20, values: A.close }),
      'trading-signals': () => tsLoop(tsig.EMA, 20)(A.close),
      '@ixjb94/indicators': () => ix.ema(A.close, 20),
      indicatorts: () => indicatorts.ema(A.close, { period: 20 }),
    },
  },
  {
    name: 'WMA(20)',
    fn: 'wma',
    ours: () => core.wma(C.close, { period: 20 }),
    plain: () => plain.wma(C.close, 20),
    peers: {
      technicalindicators: () => ti.WMA.calculate({ period: 20, values: A.close }),
      '@ixjb94/indicators': () => ix.wma(A.close, 20),
    },
  },
  {
    name: 'RSI(14)',
    ours: () => core.rsi(C.close, { period: 14 }),
    plain: () => plain.rsi(C.close, 14),
    peers: {
      technicalindicators: () => ti.RSI.calculate({ period: 14, values: A.close }),
      'trading-signals': () => tsLoop(tsig.RSI, 14)(A.close),
      '@ixjb94/indicators': () => ix.rsi(A.close, 14),
      indicatorts: () => indicatorts.rsi(A.close, { period: 14 }),
    },
  },
  {
    name: 'MACD(12,26,9)',
    fn: 'macd',
    ours: () => core.macd(C.close, { fast: 12, slow: 26, signal: 9 }),
    plain: () => plain.macd(C.close, 12, 26, 9),
    peers: {
      technicalindicators: () =>
        ti.MACD.calculate({
          fastPeriod: 12,
          slowPeriod: 26,
          signalPeriod: 9,
          values: A.close,
          SimpleMAOscillator: false,
          SimpleMASignal: false,
        }),
      '@ixjb94/indicators': () => ix.macd(A.close, 12, 26, 9),
      indicatorts: () => indicatorts.macd(A.close),
    },
  },
  {
    name: 'BBands(20,2)',
    fn: 'bbands',
    ours: () => core.bbands(C.close, { period: 20, stdDev: 2 }),
    plain: () => plain.bbands(C.close, 20, 2),
    peers: {
      technicalindicators: () => ti.BollingerBands.calculate({ period: 20, stdDev: 2, values: A.close }),
      '@ixjb94/indicators': () => ix.bbands(A.close, 20, 2),
    },
  },
  {
    name: 'BBands(20,2) into out',
    ours: () => core.bbands(C.close, { period: 20, stdDev: 2, out: BANDS_OURS }),
    plain: () => plain.bbandsInto(C.close, 20, 2, BANDS_PLAIN),
    peers: {
      technicalindicators: () => ti.BollingerBands.calculate({ period: 20, stdDev: 2, values: A.close }),
      '@ixjb94/indicators': () => ix.bbands(A.close, 20, 2),
    },
  },
  {
    name: 'ATR(14)',
    fn: 'atr',
    ours: () => core.atr(C, { period: 14 }),
    plain: () => plain.atr(C, 14),
    peers: {
      technicalindicators: () => ti.ATR.calculate({ period: 14, high: A.high, low: A.low, close: A.close }),
      'trading-signals': tsLoopHLC(tsig.ATR, 14),
      '@ixjb94/indicators': () => ix.atr(A.high, A.low, A.close, 14),
      indicatorts: () => indicatorts.atr(A.high, A.low, A.close, { period: 14 }),
    },
  },
  {
    name: 'ADX(14)',
    fn: 'adx',
    ours: () => core.adx(C, { period: 14 }),
    plain: () => plain.adx(C, 14),
    peers: {
      technicalindicators: () => ti.ADX.calculate({ period: 14, high: A.high, low: A.low, close: A.close }),
      'trading-signals': tsLoopHLC(tsig.ADX, 14),
      '@ixjb94/indicators': () => ix.adx(A.high, A.low, 14),
    },
  },
  {
    // Into an array the caller reuses, as "SMA(20) into out" (the peers allocate).
    name: 'ADX(14) into out',
    fn: 'adx',
    ours: () => core.adx(C, { period: 14, out: OUT_OURS }),
    plain: () => plain.adxInto(C, 14, OUT_PLAIN),
    peers: {
      technicalindicators: () => ti.ADX.calculate({ period: 14, high: A.high, low: A.low, close: A.close }),
      'trading-signals': tsLoopHLC(tsig.ADX, 14),
      '@ixjb94/indicators': () => ix.adx(A.high, A.low, 14),
    },
  },
  {
    name: 'OBV',
    fn: 'obv',
    ours: () => core.obv(C),
    plain: () => plain.obv(C),
    peers: {
      technicalindicators: () => ti.OBV.calculate({ close: A.close, volume: A.volume }),
      '@ixjb94/indicators': () => ix.obv(A.close, A.volume),
    },
  },
  {
    name: 'ROC(10)',
    fn: 'roc',
    ours: () => core.roc(C.close, { period: 10 }),
    plain: () => plain.roc(C.close, 10),
    peers: {
      technicalindicators: () => ti.ROC.calculate({ period: 10, values: A.close }),
      '@ixjb94/indicators': () => ix.roc(A.close, 10),
    },
  },
  {
    name: 'Stoch(14,3,3)',
    fn: 'stoch',
    ours: () => core.stoch(C, { kPeriod: 14, kSmooth: 3, dPeriod: 3 }),
    plain: () => plain.stoch(C, 14, 3, 3),
    peers: {
      technicalindicators: () =>
        ti.Stochastic.calculate({ period: 14, signalPeriod: 3, high: A.high, low: A.low, close: A.close }),
      '@ixjb94/indicators': () => ix.stoch(A.high, A.low, A.close, 14, 3, 3),
    },
  },
  {
    name: 'WillR(14)',
    fn: 'willr',
    ours: () => core.willr(C, { period: 14 }),
    plain: () => plain.willr(C, 14),
    peers: {
      technicalindicators: () => ti.WilliamsR.calculate({ period: 14, high: A.high, low: A.low, close: A.close }),
      '@ixjb94/indicators': () => ix.willr(A.high, A.low, A.close, 14),
    },
  },
  {
    name: 'CCI(20)',
    fn: 'cci',
    ours: () => core.cci(C, { period: 20 }),
    plain: () => plain.cci(C, 20),
    peers: {
      technicalindicators: () => ti.CCI.calculate({ period: 20, high: A.high, low: A.low, close: A.close }),
      '@ixjb94/indicators': () => ix.cci(A.high, A.low, A.close, 20),
    },
  },
  {
    name: 'CCI(20) into out',
    fn: 'cci',
    ours: () => core.cci(C, { period: 20, out: OUT_OURS }),
    plain: () => plain.cciInto(C, 20, OUT_PLAIN),
    peers: {
      technicalindicators: () => ti.CCI.calculate({ period: 20, high: A.high, low: A.low, close: A.close }),
      '@ixjb94/indicators': () => ix.cci(A.high, A.low, A.close, 20),
    },
  },
  {
    name: 'MFI(14)',
    fn: 'mfi',
    ours: () => core.mfi(C, { period: 14 }),
    plain: () => plain.mfi(C, 14),
    peers: {
      technicalindicators: () =>
        ti.MFI.calculate({ period: 14, high: A.high, low: A.low, close: A.close, volume: A.volume }),
      '@ixjb94/indicators': () => ix.mfi(A.high, A.low, A.close, A.volume, 14),
    },
  },
];

function runCase(c) {
  const ours = time(c.ours);
  const pl = time(c.plain);
  const peerTimes = {};
  for (const [name, fn] of Object.entries(c.peers)) {
    if (skip.has(name)) continue;
    try {
      peerTimes[name] = time(fn);
    } catch (e) {
      peerTimes[name] = Number.NaN;
      console.error(`${c.name} ${name}: ${e.message}`);
    }
  }
  const finite = Object.entries(peerTimes).filter(([, t]) => Number.isFinite(t));
  const [bestName, bestTime] = finite.reduce((a, b) => (b[1] < a[1] ? b : a), ['-', Number.POSITIVE_INFINITY]);
  return { name: c.name, ours, plain: pl, peers: peerTimes, vsPlain: ours / pl, bestName, speedup: bestTime / ours };
}

// ---- streaming: ns per update ----
function perUpdate(make, feed) {
  const run = () => {
    const s = make();
    const t0 = cpuMs();
    feed(s);
    return ((cpuMs() - t0) * 1e6) / N;
  };
  run();
  const t = [];
  for (let r = 0; r < RUNS; r++) {
    globalThis.gc?.();
    t.push(run());
  }
  return median(t);
}
const closes = A.close;
const streamCases = [
  {
    name: 'RSI(14) update',
    ours: () =>
      perUpdate(
        () => new core.RSI({ period: 14 }),
        (s) => {
          for (let i = 0; i < N; i++) s.update(closes[i]);
          sink += s.value;
        },
      ),
    peer: () =>
      perUpdate(
        () => new tsig.RSI(14),
        (s) => {
          for (let i = 0; i < N; i++) s.add(closes[i]);
        },
      ),
  },
  {
    name: 'EMA(20) update',
    ours: () =>
      perUpdate(
        () => new core.EMA({ period: 20 }),
        (s) => {
          for (let i = 0; i < N; i++) s.update(closes[i]);
          sink += s.value;
        },
      ),
    peer: () =>
      perUpdate(
        () => new tsig.EMA(20),
        (s) => {
          for (let i = 0; i < N; i++) s.add(closes[i]);
        },
      ),
  },
];
const runStream = (s) => ({ name: s.name, ours: s.ours(), peer: s.peer() });

// The memory floor: a fresh N-value Float64Array written once, whatever the maths.
function floorCase() {
  return time(() => {
    const o = new Float64Array(N);
    for (let i = 0; i < N; i++) o[i] = i;
    return o;
  });
}

const available = (c) => !c.fn || typeof core[c.fn] === 'function';
const exact = isMainThread ? null : workerData.exact;
let rows = [];
let streams = [];
let floor = Number.NaN;
if (exact !== null) {
  // A worker of --isolate: one case, reported to the parent.
  const c = cases.find((x) => x.name === exact);
  const s = streamCases.find((x) => x.name === exact);
  const result = c ? runCase(c) : s ? runStream(s) : floorCase();
  parentPort.postMessage({ kind: c ? 'row' : s ? 'stream' : 'floor', result, sink });
  process.exit(0);
}
const inWorker = (name) =>
  new Promise((res, rej) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { args, exact: name } });
    w.once('message', res);
    w.once('error', rej);
  });
if (isolate) {
  for (const c of cases) if (available(c) && selected(c.name)) rows.push((await inWorker(c.name)).result);
  for (const s of streamCases) if (selected(s.name)) streams.push((await inWorker(s.name)).result);
  if (selected('floor')) floor = (await inWorker('floor')).result;
} else {
  rows = cases.filter((c) => available(c) && selected(c.name)).map(runCase);
  streams = streamCases.filter((s) => selected(s.name)).map(runStream);
  if (selected('floor')) floor = floorCase();
}
if (json) {
  console.log(JSON.stringify({ n: N, runs: RUNS, isolate, node: process.version, rows, streams, floor }));
  process.exit(0);
}

const f = (x) => (Number.isFinite(x) ? (x < 10 ? x.toFixed(2) : x.toFixed(1)) : '-');
const peerNames = ['technicalindicators', 'trading-signals', '@ixjb94/indicators', 'indicatorts'];
const head = ['indicator', 'ours', 'plain loop', ...peerNames, 'ours/plain', 'fastest peer', 'peer/ours', 'targets'];
const table = rows.map((r) => [
  r.name,
  f(r.ours),
  f(r.plain),
  ...peerNames.map((p) => f(r.peers[p])),
  `${r.vsPlain.toFixed(2)}x`,
  r.bestName,
  `${r.speedup.toFixed(1)}x`,
  r.vsPlain <= 1.5 && r.speedup >= 2 ? 'ok' : 'MISSED',
]);
const sHead = ['streaming', 'ours ns/update', 'trading-signals ns/update', 'peer/ours', 'target (>= 2x)'];
const sTable = streams.map((s) => [
  s.name,
  f(s.ours),
  f(s.peer),
  `${(s.peer / s.ours).toFixed(1)}x`,
  s.peer / s.ours >= 2 ? 'ok' : 'MISSED',
]);

function print(h, t) {
  if (markdown) {
    console.log(`| ${h.join(' | ')} |`);
    console.log(`|${h.map(() => '---').join('|')}|`);
    for (const r of t) console.log(`| ${r.join(' | ')} |`);
    return;
  }
  const w = h.map((x, i) => Math.max(x.length, ...t.map((r) => r[i].length)));
  const line = (r) => r.map((x, i) => (i === 0 ? x.padEnd(w[i]) : x.padStart(w[i]))).join('  ');
  console.log(line(h));
  for (const r of t) console.log(line(r));
}
const mode = isolate ? 'each case in a fresh worker' : 'all cases in one isolate, in order';
console.log(`${N.toLocaleString('en')} candles, median of ${RUNS} runs, CPU ms, ${mode}; Node ${process.version}`);
print(head, table);
console.log('');
print(sHead, sTable);
if (Number.isFinite(floor)) {
  console.log('');
  console.log(`memory floor: a fresh ${N.toLocaleString('en')}-value Float64Array written once: ${f(floor)} ms`);
}
if (sink === 42) console.log('');
