// The search for an edge of issue 40 (item 5): factors with a published record, each tried alone
// (a plan on the side the factor says) and as a filter of the signal's side (the signal's plan kept
// only where the factor agrees), walk-forward on the real series with the held-out split and a
// permutation test. The training part chooses each factor's parameters; the held-out part only
// reports. A factor is kept only if its held-out mean realized R after costs has a 95% interval
// above zero and beats the signal's own held-out figure. `factorSearchSection(series)` returns the
// EVALUATION.md section (markdown lines); run alone (after `pnpm --filter @marketlens/core build`),
// `node scripts/factor-search.mjs` prints it. Deterministic: seeded bootstrap and permutations.
import { fileURLToPath } from 'node:url';
import { analyze, buildPlan, computeContext, roundTripCostPct, signalEvidence, simulatePlan } from '../dist/index.js';
import { prng, shuffle } from './levels-null.mjs';
import { bootstrapCI } from './plan-search.mjs';
import { closed, loadSeries, splitIndex, WARMUP } from './walk-forward.mjs';

/** The asset class whose round trip each real series trades at (as scripts/signal-edge.mjs). */
const CLASS_OF = {
  'nvda d1': 'stocks',
  'orcl d1': 'stocks',
  'index m5': 'stocks',
  'crypto m1': 'coins',
  'xrp perp h1': 'coins',
};
/** The families the factors are chosen and reported for (a daily rule is not an intraday one). */
const FAMILY_OF = {
  'nvda d1': 'daily',
  'orcl d1': 'daily',
  'index m5': 'intraday',
  'crypto m1': 'intraday',
  'xrp perp h1': 'intraday',
};
const PERMUTATIONS = 500;

const sign = (x) => (x > 0 ? 1 : x < 0 ? -1 : 0);

/** Simple moving average of `close` over `n` candles ending at each index (NaN before). */
function smaOf(close, n) {
  const out = new Float64Array(close.length).fill(Number.NaN);
  let s = 0;
  for (let i = 0; i < close.length; i++) {
    s += close[i];
    if (i >= n) s -= close[i - n];
    if (i >= n - 1) out[i] = s / n;
  }
  return out;
}

/**
 * The factors and the parameters tried, in candles of the series. Each `side(c, i)` reads candles
 * up to `i` only and says +1 (long), -1 (short) or 0 (no view).
 */
export const FACTORS = [
  {
    name: 'time-series momentum',
    source: 'Moskowitz, Ooi and Pedersen (2012): the return over the lookback, skipping the last candles',
    params: [
      { lookback: 252, skip: 21 },
      { lookback: 126, skip: 21 },
      { lookback: 63, skip: 5 },
    ],
    label: (p) => `return of candles t-${p.lookback}..t-${p.skip}`,
    make: (_c, p) => (c, i) => (i < p.lookback ? 0 : sign(c.close[i - p.skip] / c.close[i - p.lookback] - 1)),
  },
  {
    name: 'trend filter',
    source: 'the 50/200 moving-average trend rule (Faber 2007; Brock, Lakonishok and LeBaron 1992)',
    params: [
      { fast: 50, slow: 200 },
      { fast: 20, slow: 100 },
      { fast: 10, slow: 50 },
    ],
    label: (p) => `SMA${p.fast} vs SMA${p.slow}`,
    make: (c, p) => {
      const fast = smaOf(c.close, p.fast);
      const slow = smaOf(c.close, p.slow);
      return (_c, i) => (Number.isNaN(slow[i]) ? 0 : sign(fast[i] - slow[i]));
    },
  },
  {
    name: 'volatility breakout',
    source: 'Donchian channel breakout as in the Turtle rules: a close beyond the prior N-candle high or low',
    params: [{ n: 20 }, { n: 55 }, { n: 100 }],
    label: (p) => `close beyond the prior ${p.n}-candle channel`,
    make: (_c, p) => (c, i) => {
      if (i < p.n) return 0;
      let hi = Number.NEGATIVE_INFINITY;
      let lo = Number.POSITIVE_INFINITY;
      for (let k = i - p.n; k < i; k++) {
        if (c.high[k] > hi) hi = c.high[k];
        if (c.low[k] < lo) lo = c.low[k];
      }
      return c.close[i] > hi ? 1 : c.close[i] < lo ? -1 : 0;
    },
  },
  {
    name: 'short-term reversal',
    source: 'Jegadeesh (1990), Lehmann (1990): against the sign of the last candles’ return',
    params: [{ k: 1 }, { k: 5 }, { k: 20 }],
    label: (p) => `against the return of the last ${p.k} candle${p.k === 1 ? '' : 's'}`,
    make: (_c, p) => (c, i) => (i < p.k ? 0 : -sign(c.close[i] / c.close[i - p.k] - 1)),
  },
];

/**
 * Walks one series: at every analysed candle, the signal's side and the realized R (after the
 * class's cost) of the default plan on each side, entered on the next candle. Training candles'
 * plans are simulated on the training candles only.
 */
function walkSides(s) {
  const c = s.candles;
  const costPct = roundTripCostPct({ assetClass: CLASS_OF[s.name] ?? 'stocks' });
  const ctx = computeContext(c);
  const n = c.close.length;
  const split = splitIndex(n);
  const train = {};
  for (const k of ['time', 'open', 'high', 'low', 'close', 'volume']) train[k] = c[k].subarray(0, split);
  const rows = [];
  for (let i = Math.min(WARMUP, Math.floor(n / 3)); i < n - 1; i += s.stride) {
    const part = i < split ? 'train' : 'test';
    if (part === 'train' && i >= split - 1) continue;
    const a = analyze(ctx, { asOf: i, plan: { costPct } });
    const ev = signalEvidence(a.signal.factors);
    const levels = { ...a.levels, volume_profile: a.volume_profile };
    const r = {};
    for (const [side, direction] of [
      [1, 'long'],
      [-1, 'short'],
    ]) {
      const plan = buildPlan(c, levels, { direction, costPct });
      r[side] = null;
      if (plan.direction === null) continue;
      const sim = simulatePlan(plan, part === 'train' ? train : c, { fromIndex: i + 1, costPct });
      if (closed(sim)) r[side] = sim.realized_r;
    }
    rows.push({ i, part, signal: ev.side === 'buy' ? 1 : ev.side === 'sell' ? -1 : 0, r });
  }
  return { name: s.name, family: FAMILY_OF[s.name] ?? 'intraday', candles: c, rows };
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);
const f = (x, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '-');

/** Realized R of the trades a rule takes in one part of the walked series of a family. */
function tradesOf(walked, part, sideAt) {
  const out = [];
  for (const w of walked) {
    for (const row of w.rows) {
      if (row.part !== part) continue;
      const side = sideAt(w, row);
      if (side === 0) continue;
      const r = row.r[side];
      if (r !== null) out.push(r);
    }
  }
  return out;
}

/**
 * One-sided permutation test of a rule's mean R, the share of shuffles whose mean R is as high as
 * the observed one. `sides`: the rule's sides are shuffled among the candles where it takes one,
 * within each series (the count of longs and shorts kept): does the direction it says matter?
 * `subset` (a filter): which of the signal's candles it keeps is shuffled, within each series (the
 * count kept): does its choice beat keeping as many of the signal's plans at random?
 */
function permutationP(walked, part, sideAt, observed, seed, mode) {
  const rnd = prng(seed);
  const perSeries = walked.map((w) => {
    const rows = w.rows.filter((row) => row.part === part && (mode === 'sides' || row.signal !== 0));
    const sides = rows.map((row) => sideAt(w, row));
    if (mode === 'subset') return { rows, labels: sides.map((x) => (x === 0 ? 0 : 1)) };
    const taken = rows.filter((_, k) => sides[k] !== 0);
    return { rows: taken, labels: sides.filter((x) => x !== 0) };
  });
  let asGood = 0;
  for (let k = 0; k < PERMUTATIONS; k++) {
    let sum = 0;
    let count = 0;
    for (const s of perSeries) {
      const labels = shuffle([...s.labels], rnd);
      s.rows.forEach((row, j) => {
        if (labels[j] === 0) return;
        const r = row.r[mode === 'subset' ? row.signal : labels[j]];
        if (r !== null) {
          sum += r;
          count++;
        }
      });
    }
    if (count > 0 && sum / count >= observed) asGood++;
  }
  return (1 + asGood) / (1 + PERMUTATIONS);
}

/** The figures of one rule on one part: trades, mean R with its interval, permutation p (held out only). */
function figures(walked, part, sideAt, seed, mode = 'sides') {
  const rs = tradesOf(walked, part, sideAt);
  const m = mean(rs);
  const [lo, hi] = bootstrapCI(rs, { seed });
  const p = part === 'test' && rs.length > 1 ? permutationP(walked, part, sideAt, m, seed + 1, mode) : Number.NaN;
  return { n: rs.length, mean: m, lo, hi, p };
}

/** The EVALUATION.md section of issue 40 item 5, as markdown lines. */
export function factorSearchSection(series) {
  const walkedAll = series.map(walkSides);
  const out = [];
  out.push('## Search for an edge: factors with a published record (issue 40)');
  out.push('');
  out.push(
    "Walk-forward as above, each series at its asset class's round trip (stocks 0.05%, coins 0.22%). At every analysed candle the default plan is built on each side from that candle's levels and simulated on the candles after it (training plans on training candles only). A factor **alone** trades the plan on the side it says wherever it takes a side; as a **filter** it keeps the signal's plan (the side the signal's evidence leans to) only where it agrees. Parameters are in candles of the series and chosen per family (daily: NVDA, ORCL; intraday: index m5, crypto m1, XRP h1) by the training part's mean realized R; the held-out part only reports. Mean realized R is over the plans entered and closed, with a 95% moving-block bootstrap interval (blocks of 20 plans, 1000 seeded resamples); p is a one-sided permutation test on the held-out part, 500 seeded shuffles per series: alone, the factor's sides shuffled among the candles where it takes one (does its direction matter?); as a filter, which of the signal's candles it keeps shuffled (does it beat keeping as many at random?); for the baseline, the signal's sides shuffled. Keep rule: held-out 95% interval above 0 and held-out mean above the signal's own.",
  );
  const kept = [];
  let seed = 500;
  for (const family of ['daily', 'intraday']) {
    const walked = walkedAll.filter((w) => w.family === family);
    if (walked.length === 0) continue;
    const signalSide = (_w, row) => row.signal;
    const base = {
      train: figures(walked, 'train', signalSide, ++seed),
      test: figures(walked, 'test', signalSide, ++seed),
    };
    out.push('');
    out.push(`### ${family === 'daily' ? 'Daily' : 'Intraday'} (${walked.map((w) => w.name).join(', ')})`);
    out.push('');
    out.push(
      '| rule | parameters | use | training plans | training mean R [95%] | chosen | held-out plans | held-out mean R [95%] | p | kept |',
    );
    out.push('|---|---|---|---:|---|:---:|---:|---|---:|:---:|');
    out.push(
      `| the signal's side (baseline) | shipped | - | ${base.train.n} | ${f(base.train.mean)} [${f(base.train.lo)}, ${f(base.train.hi)}] | - | ${base.test.n} | ${f(base.test.mean)} [${f(base.test.lo)}, ${f(base.test.hi)}] | ${f(base.test.p)} | - |`,
    );
    for (const factor of FACTORS) {
      for (const use of ['alone', 'filter']) {
        const tried = factor.params.map((p) => {
          const sides = new Map(walked.map((w) => [w, factor.make(w.candles, p)]));
          const sideAt =
            use === 'alone'
              ? (w, row) => sides.get(w)(w.candles, row.i)
              : (w, row) => (row.signal !== 0 && sides.get(w)(w.candles, row.i) === row.signal ? row.signal : 0);
          return { p, sideAt, train: figures(walked, 'train', sideAt, ++seed) };
        });
        const usable = tried.filter((t) => t.train.n > 0);
        const best = usable.reduce((a, b) => (b.train.mean > a.train.mean ? b : a), usable[0]);
        for (const t of tried) {
          const chosen = t === best;
          const test = chosen ? figures(walked, 'test', t.sideAt, ++seed, use === 'alone' ? 'sides' : 'subset') : null;
          const keep = test !== null && test.lo > 0 && test.mean > base.test.mean;
          if (keep) kept.push(`${factor.name} (${factor.label(t.p)}, ${use}, ${family})`);
          out.push(
            `| ${factor.name} | ${factor.label(t.p)} | ${use} | ${t.train.n} | ${f(t.train.mean)} [${f(t.train.lo)}, ${f(t.train.hi)}] | ${chosen ? 'yes' : ''} | ${test ? test.n : ''} | ${test ? `${f(test.mean)} [${f(test.lo)}, ${f(test.hi)}]` : ''} | ${test ? f(test.p) : ''} | ${test ? (keep ? 'yes' : 'no') : ''} |`,
          );
        }
      }
    }
  }
  out.push('');
  out.push(
    'Volatility-scaled position size (Moskowitz, Ooi and Pedersen scale each position to a constant volatility) was considered and not tried as a factor: every plan here is measured in R, the distance from entry to stop, so each already risks the same fraction of equity whatever the volatility, and its expected R does not change with position size by construction. What sizing by volatility changes is the spread of returns in currency, which this evaluation does not score.',
  );
  out.push('');
  out.push(
    kept.length === 0
      ? 'What it says, plainly: no factor met the keep rule, so none was added to the signal. Where a factor did better than the signal in the training years, the held-out years did not confirm it with an interval above zero after costs; the figures above are the record of what was tried.'
      : `Kept (held-out interval above zero and above the signal's own): ${kept.join('; ')}. These are candidates for the signal; a kept factor joins it only with a refitted calibration, which is reported in the calibration section.`,
  );
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const series = loadSeries();
  if (!series) {
    console.error('factor-search needs the real series in ../shared/data; none found.');
    process.exit(2);
  }
  const t0 = Date.now();
  console.log(factorSearchSection(series).join('\n'));
  console.error(`factor search: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
