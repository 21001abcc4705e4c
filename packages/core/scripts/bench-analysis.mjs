// Analysis engine speed: analyze() on 1,000 candles (target: median under 2 ms) and the screener
// over 1,000 assets of 500 candles (target: under 1 s), each against a peer measured in the same
// run: computing just the indicator inputs (RSI, MACD, Bollinger, ATR, ADX, Stochastic, SMA 20/50/200)
// with technicalindicators, which is what a user would otherwise start from.
import ti from 'technicalindicators';
import { analyze, runScreeners } from '../dist/index.js';

function candles(n, seed) {
  let s = seed;
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
    p = Math.max(1, p * (1 + (rnd() - 0.5) * 0.04 + Math.sin(i / 40) * 0.003));
    c.time[i] = 1.6e12 + i * 86_400_000;
    c.open[i] = o;
    c.close[i] = p;
    c.high[i] = Math.max(o, p) * (1 + rnd() * 0.01);
    c.low[i] = Math.min(o, p) * (1 - rnd() * 0.01);
    c.volume[i] = 1e6 * (0.5 + rnd());
  }
  return c;
}

function peer(c) {
  const close = Array.from(c.close);
  const high = Array.from(c.high);
  const low = Array.from(c.low);
  ti.RSI.calculate({ period: 14, values: close });
  ti.MACD.calculate({
    fastPeriod: 12,
    slowPeriod: 26,
    signalPeriod: 9,
    values: close,
    SimpleMAOscillator: false,
    SimpleMASignal: false,
  });
  ti.BollingerBands.calculate({ period: 20, stdDev: 2, values: close });
  ti.ATR.calculate({ period: 14, high, low, close });
  ti.ADX.calculate({ period: 14, high, low, close });
  ti.Stochastic.calculate({ period: 14, signalPeriod: 3, high, low, close });
  for (const period of [20, 50, 200]) ti.SMA.calculate({ period, values: close });
}

function median(fn, runs) {
  const t = [];
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    fn(r);
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return t[t.length >> 1];
}

const one = Array.from({ length: 50 }, (_, k) => candles(1000, k + 1));
for (let w = 0; w < 3; w++) for (const c of one) analyze(c);
for (const c of one.slice(0, 5)) peer(c);
const ours = median((r) => analyze(one[r % one.length]), 200);
const theirs = median((r) => peer(one[r % one.length]), 50);

const assets = Array.from({ length: 1000 }, (_, k) => ({ asset_id: `asset-${k}`, candles: candles(500, 1000 + k) }));
runScreeners(assets.slice(0, 50));
const screen = median(() => runScreeners(assets), 3);
const screenPeer = median(() => {
  for (const a of assets) peer(a.candles);
}, 1);

const row = (name, o, p, target) =>
  console.log(
    `${name.padEnd(34)} ${o.toFixed(2).padStart(9)} ${p.toFixed(2).padStart(12)} ${`${(p / o).toFixed(1)}x`.padStart(10)}   ${target}`,
  );
console.log(
  `${'case'.padEnd(34)} ${'ours ms'.padStart(9)} ${'peer ms'.padStart(12)} ${'peer/ours'.padStart(10)}   target`,
);
row('analyze(), 1,000 candles', ours, theirs, ours < 2 ? 'ok (< 2 ms)' : 'MISSED (< 2 ms)');
row('runScreeners(), 1,000 x 500', screen, screenPeer, screen < 1000 ? 'ok (< 1 s)' : 'MISSED (< 1 s)');
console.log('peer: the indicator inputs alone with technicalindicators (no levels, plan, signal or screening).');
