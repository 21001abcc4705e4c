// The regime's section of EVALUATION.md (issue 38): does the phase tell the forward return apart?
// Per series, every bar the regime names a phase, the forward return over the next HORIZON bars
// in ATR(14) units of that bar (comparable across assets and timeframes). The separation is the
// mean forward return after markup minus that after markdown (and accumulation minus
// distribution, the pair the signal scores +-0.3), on the training part (the first 70% of each
// series, bars whose forward window ends before the split) and the held-out part, each with a
// 95% interval from a moving-block bootstrap over time (blocks of HORIZON bars within each
// series, seeded). Deterministic. `EVAL_ONLY=regime pnpm --filter @marketlens/core eval` prints
// the section alone.
import { atr, REGIME_PHASES, regimeSeries } from '../dist/index.js';
import { prng } from './levels-null.mjs';
import { splitIndex } from './walk-forward.mjs';

/** Bars of the forward return. */
export const HORIZON = 20;
const RESAMPLES = 1000;

/** Per series and part, the (phase code, forward return in ATR) of every classified bar. */
function samples(series) {
  const out = [];
  for (const s of series) {
    const c = s.candles;
    const n = c.close.length;
    const split = splitIndex(n);
    const { phase } = regimeSeries(c);
    const a = atr(c, { period: 14 });
    const parts = { train: { code: [], fwd: [] }, test: { code: [], fwd: [] } };
    for (let i = 0; i + HORIZON < n; i++) {
      if (phase[i] < 0 || !(a[i] > 0)) continue;
      const part = i + HORIZON < split ? 'train' : i >= split ? 'test' : null;
      if (part === null) continue;
      parts[part].code.push(phase[i]);
      parts[part].fwd.push((c.close[i + HORIZON] - c.close[i]) / a[i]);
    }
    out.push({ name: s.name, parts });
  }
  return out;
}

const code = (name) => REGIME_PHASES.indexOf(name);

/** Mean forward return of phase `a` minus that of phase `b` over the given (code, fwd) groups. */
function separation(groups, a, b) {
  let sa = 0;
  let na = 0;
  let sb = 0;
  let nb = 0;
  for (const g of groups) {
    for (let k = 0; k < g.code.length; k++) {
      if (g.code[k] === a) {
        sa += g.fwd[k];
        na++;
      } else if (g.code[k] === b) {
        sb += g.fwd[k];
        nb++;
      }
    }
  }
  return { value: na > 0 && nb > 0 ? sa / na - sb / nb : Number.NaN, na, nb };
}

/** A moving-block bootstrap resample of one series' bars (blocks of HORIZON in time order). */
function resample(g, rnd) {
  const n = g.code.length;
  const b = Math.min(HORIZON, n);
  const starts = n - b + 1;
  const code = [];
  const fwd = [];
  while (code.length < n) {
    const s = Math.floor(rnd() * starts);
    for (let q = s; q < s + b && code.length < n; q++) {
      code.push(g.code[q]);
      fwd.push(g.fwd[q]);
    }
  }
  return { code, fwd };
}

/** The separation of `a` over `b` with its 95% block-bootstrap interval. */
function withInterval(groups, a, b, seed) {
  const point = separation(groups, a, b);
  const rnd = prng(seed);
  const vs = [];
  for (let r = 0; r < RESAMPLES; r++) {
    const v = separation(
      groups.filter((g) => g.code.length > 0).map((g) => resample(g, rnd)),
      a,
      b,
    ).value;
    if (Number.isFinite(v)) vs.push(v);
  }
  vs.sort((x, y) => x - y);
  const lo = vs.length ? vs[Math.floor(0.025 * vs.length)] : Number.NaN;
  const hi = vs.length ? vs[Math.ceil(0.975 * vs.length) - 1] : Number.NaN;
  return { ...point, lo, hi };
}

/**
 * The measured separations: per part, markup - markdown and accumulation - distribution with
 * their intervals, and the mean forward return and count of each phase; `heldOutValue` is true
 * when markup - markdown is above 0 at the lower end of its interval on both parts.
 */
export function regimeEvaluation(series) {
  const all = samples(series);
  const part = (p) => all.map((s) => s.parts[p]);
  const result = {};
  for (const p of ['train', 'test']) {
    const groups = part(p);
    const phases = REGIME_PHASES.map((name, k) => {
      let sum = 0;
      let count = 0;
      let up = 0;
      for (const g of groups) {
        for (let j = 0; j < g.code.length; j++) {
          if (g.code[j] !== k) continue;
          sum += g.fwd[j];
          count++;
          if (g.fwd[j] > 0) up++;
        }
      }
      return { name, count, mean: count ? sum / count : Number.NaN, up: count ? up / count : Number.NaN };
    });
    result[p] = {
      phases,
      trend: withInterval(groups, code('markup'), code('markdown'), p === 'train' ? 38 : 39),
      range: withInterval(groups, code('accumulation'), code('distribution'), p === 'train' ? 40 : 41),
    };
  }
  result.heldOutValue = result.train.trend.lo > 0 && result.test.trend.lo > 0;
  return result;
}

const f = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const pc = (x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '-');

/** The section's markdown lines, from {@link regimeEvaluation}'s result. */
export function regimeSectionLines(ev, { cycleWeight }) {
  const lines = [];
  const out = (s = '') => lines.push(s);
  out("## Regime: the phase's forward-return separation (issue 38)");
  out();
  out(
    `Every bar the regime names a phase (from the 220th candle: SMA200 and its slope), the forward return over the next ${HORIZON} bars in ATR(14) units of that bar. Training: the first 70% of each series (bars whose forward window ends before the split); held out: the rest. Separation: the mean forward return after markup minus after markdown (and accumulation minus distribution). Interval: 95%, moving-block bootstrap over time (blocks of ${HORIZON} bars within each series, ${RESAMPLES} resamples, seeded).`,
  );
  out();
  out('| | training (70%) | held out (30%) |');
  out('|---|---:|---:|');
  const sep = (s) => `${f(s.value)} [${f(s.lo)}, ${f(s.hi)}] (${s.na} / ${s.nb} bars)`;
  out(`| markup - markdown, ATR | ${sep(ev.train.trend)} | ${sep(ev.test.trend)} |`);
  out(`| accumulation - distribution, ATR | ${sep(ev.train.range)} | ${sep(ev.test.range)} |`);
  for (let k = 0; k < ev.train.phases.length; k++) {
    const a = ev.train.phases[k];
    const b = ev.test.phases[k];
    out(
      `| ${a.name}: bars, mean forward ATR, share up | ${a.count}, ${f(a.mean)}, ${pc(a.up)} | ${b.count}, ${f(b.mean)}, ${pc(b.up)} |`,
    );
  }
  out();
  out(
    ev.heldOutValue
      ? `What it says: markup is followed by higher returns than markdown at the lower end of the interval on both parts, so the regime keeps its vote in the signal (\`cycle_phase\` weight ${cycleWeight}).`
      : `What it says: the interval of markup - markdown does not stay above 0 on both parts, so the phase has no measured forward value and the regime has no vote in the signal: the \`cycle_phase\` factor is still reported, with default weight ${cycleWeight}. The regime describes the chart; it does not forecast.`,
  );
  out();
  return lines;
}
