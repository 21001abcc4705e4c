import { it } from 'vitest';
import { stdDev, windowStdDevInto } from './stddev.js';
function candles(n: number) { let s = 42; const rnd = () => { s = (s + 0x6d2b79f5) | 0; let t = Math.imul(s ^ (s >>> 15), 1 | s); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const c = new Float64Array(n); let p = 100; for (let i = 0; i < n; i++) { p = Math.max(1, p * (1 + (rnd() - 0.5) * 0.02)); c[i] = p; } return c; }
function naive(x: Float64Array, p: number) { const n = x.length; const o = new Float64Array(n).fill(Number.NaN); let s = 0, s2 = 0;
  for (let i = 0; i < n; i++) { s += x[i]; s2 += x[i] * x[i]; if (i >= p) { s -= x[i - p]; s2 -= x[i - p] * x[i - p]; } if (i >= p - 1) { const m = s / p; o[i] = Math.sqrt(Math.max(0, s2 / p - m * m)); } } return o; }
function med(f: () => unknown) { f(); f(); const t: number[] = []; for (let r = 0; r < 25; r++) { const t0 = performance.now(); f(); t.push(performance.now() - t0); } t.sort((a, b) => a - b); return t[2]; }
let resyncs = 0;
function v2(values: Float64Array, p: number) {
  const n = values.length; const out = new Float64Array(n).fill(Number.NaN);
  let run = 0; let prev = Number.NaN;
  for (let i = 0; i < p - 1; i++) { const x = values[i]; run = x === prev ? run + 1 : 1; prev = x; }
  let shift = 0, mu = 0, m2 = 0, budget = 0; const inv = 1 / p;
  for (let i = p - 1; i < n; i++) {
    const x = values[i];
    if (x === prev) run++; else run = 1;
    prev = x;
    let resync = i === p - 1;
    if (run >= p) { shift = x; mu = 0; m2 = 0; budget = 0; resync = false; }
    else if (!resync) {
      const old = values[i - p]; const delta = x - old; const next = mu + delta * inv;
      const t = delta * (x - shift - next + (old - shift - mu));
      m2 += t; mu = next;
      budget += Math.abs(t) + m2 + Math.abs(delta * next);
      resync = !(budget <= m2 * 1024);
    }
    if (resync) { resyncs++;
      const start = i - p + 1; let sum = 0; for (let j = start; j <= i; j++) sum += values[j];
      shift = sum / p; let sd = 0, ss = 0; for (let j = start; j <= i; j++) { const d = values[j] - shift; sd += d; ss += d * d; }
      mu = sd / p; m2 = ss - sd * mu; if (m2 < 0) m2 = 0; budget = 0; }
    out[i] = Math.sqrt(m2 * inv);
  }
  return out;
}
it('bench', () => {
  const x = candles(1_000_000);
  for (const p of [2, 5, 20, 200]) {
    const a = med(() => stdDev(x, { period: p }));
    const c = med(() => v2(x, p));
    const b = med(() => naive(x, p));
    resyncs = 0; v2(x, p);
    console.log(p, a.toFixed(2), c.toFixed(2), b.toFixed(2), (a / b).toFixed(2), (c / b).toFixed(2), resyncs);
  }
});
