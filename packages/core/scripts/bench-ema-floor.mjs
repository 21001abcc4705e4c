// The floor of a streaming EMA update on this machine: our EMA.update against trading-signals'
// EMA.add, a minimal object that keeps only the EMA in a field (`acc = acc * a + x * k`, no
// validation, seeding, count or undo) and the same recurrence in a local variable (no object).
// An update's result depends on the previous one, so a stream that keeps its state in an object
// cannot go below the minimal object: a multiply, an add and a store-to-load forward of the
// field on the loop-carried chain.
// Usage: node --expose-gc scripts/bench-ema-floor.mjs [--n 1000000] [--runs 9] [--rounds 3]
import * as tsig from 'trading-signals';
import * as core from '../dist/index.js';

const args = process.argv.slice(2);
const arg = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const N = arg('n', 1_000_000);
const RUNS = arg('runs', 9);
const ROUNDS = arg('rounds', 3);
const xs = [];
let p = 100;
for (let i = 0; i < N; i++) {
  p *= 1 + Math.sin(i * 0.37) * 0.01;
  xs.push(p);
}
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let sink = 0;
function nsPerUpdate(make, feed) {
  const run = () => {
    const s = make();
    const t0 = cpuMs();
    feed(s);
    return ((cpuMs() - t0) * 1e6) / N;
  };
  run();
  run();
  const t = [];
  for (let r = 0; r < RUNS; r++) {
    globalThis.gc?.();
    t.push(run());
  }
  t.sort((a, b) => a - b);
  return t[t.length >> 1];
}
class MinimalEma {
  constructor(period) {
    this.k = 2 / (period + 1);
    this.a = 1 - this.k;
    this.acc = 0;
  }
  update(x) {
    const v = this.acc * this.a + x * this.k;
    this.acc = v;
    return v;
  }
}
const cases = {
  'ours EMA.update': () =>
    nsPerUpdate(
      () => new core.EMA({ period: 20 }),
      (s) => {
        for (let i = 0; i < N; i++) s.update(xs[i]);
        sink += s.value;
      },
    ),
  'trading-signals EMA.add': () =>
    nsPerUpdate(
      () => new tsig.EMA(20),
      (s) => {
        for (let i = 0; i < N; i++) s.add(xs[i]);
      },
    ),
  'minimal object (one field)': () =>
    nsPerUpdate(
      () => new MinimalEma(20),
      (s) => {
        for (let i = 0; i < N; i++) s.update(xs[i]);
        sink += s.acc;
      },
    ),
  'local variable (no object)': () =>
    nsPerUpdate(
      () => null,
      () => {
        const k = 2 / 21;
        const a = 1 - k;
        let acc = 0;
        for (let i = 0; i < N; i++) acc = acc * a + xs[i] * k;
        sink += acc;
      },
    ),
};
const rows = Object.keys(cases).map((name) => [name]);
for (let r = 0; r < ROUNDS; r++) {
  Object.values(cases).forEach((run, i) => {
    rows[i].push(run().toFixed(2));
  });
}
console.log(`EMA(20) ns per update, median of ${RUNS}, ${ROUNDS} rounds; Node ${process.version}`);
console.log(`| case | ${Array.from({ length: ROUNDS }, (_, i) => `round ${i + 1}`).join(' | ')} |`);
console.log(`|---|${Array.from({ length: ROUNDS }, () => '---').join('|')}|`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
if (sink === 42) console.log('');
