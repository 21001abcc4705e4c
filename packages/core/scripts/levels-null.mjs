// Support and resistance against a shuffled-level null, shared by scripts/eval.mjs: the bounce test
// at the nearest detected zone, the permutation test of its bounce rate, and the search over zone
// detection options on the training part of each series. Deterministic (seeded PRNG).
import { computeContext, supportResistance } from '../dist/index.js';
import { splitIndex, WARMUP } from './walk-forward.mjs';

/** Candles a test may read after the analysed one: 10 to reach the zone, 10 more to resolve. */
export const LOOK = 10;
const HORIZON = 2 * LOOK;
export const SIDES = ['support', 'resistance'];

/** mulberry32, seeded: the shuffled nulls are reproducible. */
export function prng(seed) {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle(xs, rnd) {
  for (let k = xs.length - 1; k > 0; k--) {
    const j = Math.floor(rnd() * (k + 1));
    [xs[k], xs[j]] = [xs[j], xs[k]];
  }
  return xs;
}

const UNTESTED = 0;
const NONE = 1;
const BREAK = 2;
const BOUNCE = 3;

/**
 * A support test: the first candle within LOOK candles after `i` whose low reaches the zone top.
 * It bounces when, within LOOK candles of that touch, a high clears zone top + 1 ATR before a
 * close under zone low - 0.5 ATR (a break). Resistance mirrors it. Returns one of the codes above.
 */
function levelTest(c, i, support, low, high, atr) {
  const last = c.close.length - 1;
  for (let j = i + 1; j <= Math.min(last, i + LOOK); j++) {
    if (support ? c.low[j] > high : c.high[j] < low) continue;
    for (let k = j; k <= Math.min(last, j + LOOK); k++) {
      if (support) {
        if (c.close[k] < low - 0.5 * atr) return BREAK;
        if (c.high[k] >= high + atr) return BOUNCE;
      } else {
        if (c.close[k] > high + 0.5 * atr) return BREAK;
        if (c.low[k] <= low - atr) return BOUNCE;
      }
    }
    return NONE;
  }
  return UNTESTED;
}

/**
 * The nearest zone entirely below (support) or above (resistance) the mark among the zones that
 * pass `keep`, as zoneContext picks it.
 */
function nearest(zones, mark, support, keep) {
  let best = null;
  for (const z of zones) {
    if (!keep(z)) continue;
    if (
      support
        ? z.high < mark && (best === null || z.high > best.high)
        : z.low > mark && (best === null || z.low < best.low)
    )
      best = z;
  }
  return best;
}

/**
 * The candles analysed in one part of a series: every `stride`-th candle after the warm-up;
 * training stops HORIZON candles before the split so that no training test reads a held-out candle.
 */
export function partRange(s, part) {
  const n = s.candles.close.length;
  const split = splitIndex(n);
  const first = Math.min(WARMUP, Math.floor(n / 3));
  return part === 'train' ? { from: first, to: split - 1 - HORIZON } : { from: split, to: n - 2 };
}

/**
 * Zone events of one part of a series under one detection: per side, for every analysed candle
 * with a zone on that side, the candle, the mark, the ATR, the zone's half width and its middle's
 * distance from the mark in ATRs, and the test's outcome. `filter(zone, sr)` drops zones from the
 * choice of the nearest (a candidate rule); `options` go to supportResistance.
 */
export function zoneEvents(s, part, options = {}, filter = null, extra = null) {
  const c = s.candles;
  // the indicator context is kept on the series: every detection tried reads the same ATR column
  if (s.ctx === undefined) s.ctx = computeContext(c);
  const atr = s.ctx.atr(14);
  const { from, to } = partRange(s, part);
  const out = { support: [], resistance: [] };
  for (let i = from; i <= to; i += s.stride) {
    const sr = supportResistance(c, { ...options, asOf: i, atr });
    const a = sr.atr;
    if (a === null) continue;
    const keep = filter === null ? () => true : (z) => filter(z, sr, s, i, options);
    const zones = extra === null ? sr.zones : extra(sr.zones, s, i, options);
    for (const kind of SIDES) {
      const support = kind === 'support';
      const z =
        filter === null && extra === null
          ? support
            ? sr.nearest_support
            : sr.nearest_resistance
          : nearest(zones, sr.mark, support, keep);
      if (z === null) continue;
      out[kind].push({
        i,
        mark: sr.mark,
        atr: a,
        half: (z.high - z.low) / 2,
        dist: ((z.low + z.high) / 2 - sr.mark) / a,
        outcome: levelTest(c, i, support, z.low, z.high, a),
      });
    }
  }
  return out;
}

/** Bounces, breaks, tested (bounce + break + none) of the events' outcomes. */
function tally(outcomes) {
  let bounce = 0;
  let brk = 0;
  let none = 0;
  for (const o of outcomes) {
    if (o === BOUNCE) bounce++;
    else if (o === BREAK) brk++;
    else if (o === NONE) none++;
  }
  return {
    bounce,
    break: brk,
    tested: bounce + brk + none,
    rate: bounce + brk + none ? bounce / (bounce + brk + none) : Number.NaN,
  };
}

/**
 * The permutation test of one side's bounce rate: each shuffle moves every event's zone (same
 * width) to the distance from the mark, in ATRs, of another event's zone, by a seeded permutation
 * of the distances (`block` > 1: blocks of that many consecutive events are permuted whole, which
 * keeps the overlap of neighbouring tests in the null). p = (1 + shuffles whose bounce rate is at
 * least the observed one) / (1 + shuffles). Only the outcomes depend on the shuffle; the candles,
 * marks, ATRs and widths are fixed.
 */
export function permutationTest(s, kind, events, { shuffles = 1000, seed = 1, block = 1 } = {}) {
  const c = s.candles;
  const support = kind === 'support';
  const observed = tally(events.map((e) => e.outcome));
  const n = events.length;
  const dist = Float64Array.from(events, (e) => e.dist);
  const blocks = [];
  for (let k = 0; k < n; k += block) blocks.push(k);
  const rnd = prng(seed);
  const nulls = new Float64Array(shuffles);
  let asHigh = 0;
  const outcomes = new Uint8Array(n);
  for (let r = 0; r < shuffles; r++) {
    const order = shuffle(blocks.slice(), rnd);
    let k = 0;
    for (const b of order) {
      for (let q = b; q < Math.min(n, b + block); q++, k++) {
        const e = events[k];
        const mid = e.mark + dist[q] * e.atr;
        outcomes[k] = levelTest(c, e.i, support, mid - e.half, mid + e.half, e.atr);
      }
    }
    const t = tally(outcomes);
    nulls[r] = t.rate;
    if (t.rate >= observed.rate) asHigh++;
  }
  const sorted = Float64Array.from(nulls).sort();
  const meanNull = nulls.reduce((a, b) => a + b, 0) / (shuffles || 1);
  return {
    observed,
    nullMean: meanNull,
    null95: sorted[Math.min(shuffles - 1, Math.floor(0.95 * shuffles))],
    null99: sorted[Math.min(shuffles - 1, Math.floor(0.99 * shuffles))],
    // no tested zone: no rate to compare, no p
    p: observed.tested === 0 ? Number.NaN : (1 + asHigh) / (1 + shuffles),
  };
}

/**
 * The detection before issue 24, from which the search starts (passed explicitly, so the search
 * reads the same after its choice became the default).
 */
export const LEVEL_BASE = {
  window: 500,
  fractalSpan: 2,
  zigzagAtr: 2,
  clusterAtr: 0.5,
  maxWidthAtr: 1,
  minWidthAtr: 0.2,
  halfLife: 100,
  maxZones: 12,
};

/**
 * The candidate rules tried on the training part, one parameter at a time from the default
 * (`options` go to supportResistance; `filter` limits which zones can be the nearest one).
 */
export const LEVEL_GRID = [
  { param: 'window', values: [250, 500, 1000], base: 500, key: 'window' },
  { param: 'fractalSpan', values: [1, 2, 3, 5], base: 2, key: 'fractalSpan' },
  { param: 'zigzagAtr', values: [1, 2, 3], base: 2, key: 'zigzagAtr' },
  { param: 'clusterAtr (touch merging)', values: [0.25, 0.5, 1], base: 0.5, key: 'clusterAtr' },
  { param: 'maxWidthAtr (zone width)', values: [0.5, 1, 2], base: 1, key: 'maxWidthAtr' },
  { param: 'minWidthAtr (zone width)', values: [0.1, 0.2, 0.5], base: 0.2, key: 'minWidthAtr' },
  { param: 'halfLife (recency)', values: [25, 100, 400], base: 100, key: 'halfLife' },
  { param: 'maxZones', values: [6, 12, 24], base: 12, key: 'maxZones' },
  { param: 'min touches of the nearest zone', values: [1, 2, 3], base: 1, filter: 'touches' },
  { param: 'min strength of the nearest zone', values: [0, 0.3, 0.6], base: 0, filter: 'strength' },
  {
    param: 'min volume at price of the nearest zone (x window average per unit of price)',
    values: [0, 1, 1.5],
    base: 0,
    filter: 'volume',
  },
  {
    param:
      'merging across timeframes, confirm: the nearest zone must lie within x ATR of a higher-timeframe zone (off: no condition)',
    values: ['off', 0, 0.5, 1],
    base: 'off',
    filter: 'htfConfirm',
  },
  {
    param:
      'merging across timeframes, add: higher-timeframe zones join the candidates for the nearest (off; add: both; only: higher timeframe alone)',
    values: ['off', 'add', 'only'],
    base: 'off',
    filter: 'extra',
  },
];

/** The candidate zones of a candidate rule (`extra` row of LEVEL_GRID), or null for the detected ones. */
function extraOf(v) {
  if (v === undefined || v === 'off') return null;
  if (v === 'only') return (_zones, s, i, options) => htfZones(s, i, options);
  return (zones, s, i, options) => zones.concat(htfZones(s, i, options));
}

/**
 * Merging across timeframes (issue 24.2): the higher timeframe built from the same series by
 * aggregating `factor` consecutive candles (daily -> 5 bars, 1-minute -> 15, 5-minute -> 12, i.e.
 * 1 hour, 1-hour -> 4), blocks counted from the series' first candle. At analysed candle i only
 * the higher-timeframe bars closed by i are read (the last one ends at or before i): no look-ahead.
 */
export const HTF_FACTOR = { d1: 5, m1: 15, m5: 12, h1: 4 };

function higherTimeframe(s) {
  if (s.htf !== undefined) return s.htf;
  const c = s.candles;
  const f = HTF_FACTOR[s.name.split(' ').pop()];
  const n = Math.floor(c.close.length / f);
  const h = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  for (let k = 0; k < n; k++) {
    const a = k * f;
    h.time[k] = c.time[a];
    h.open[k] = c.open[a];
    h.close[k] = c.close[a + f - 1];
    let hi = -Infinity;
    let lo = Infinity;
    let vol = 0;
    for (let q = a; q < a + f; q++) {
      if (c.high[q] > hi) hi = c.high[q];
      if (c.low[q] < lo) lo = c.low[q];
      vol += c.volume[q];
    }
    h.high[k] = hi;
    h.low[k] = lo;
    h.volume[k] = vol;
  }
  s.htf = { factor: f, candles: h, atr: computeContext(h).atr(14), cache: new Map() };
  return s.htf;
}

/**
 * The higher-timeframe zones as of base candle i (the same detection options, counted in
 * higher-timeframe bars, with the higher timeframe's ATR), or [] before its first closed bar.
 */
function htfZones(s, i, options) {
  const h = higherTimeframe(s);
  const j = Math.floor((i + 1) / h.factor) - 1;
  if (j < 0) return [];
  const key = `${j} ${JSON.stringify(options)}`;
  let zs = h.cache.get(key);
  if (zs === undefined) {
    const sr = supportResistance(h.candles, { ...options, asOf: j, atr: h.atr });
    zs = sr.atr === null ? [] : sr.zones;
    if (h.cache.size > 20000) h.cache.clear();
    h.cache.set(key, zs);
  }
  return zs;
}

/** Zone filter of a candidate rule, or null for the default choice of the nearest zone. */
function filterOf(g, v) {
  if (g.filter === undefined || v === g.base) return null;
  if (g.filter === 'extra') return null;
  if (g.filter === 'htfConfirm') {
    // keep a base zone when a higher-timeframe zone lies within v base ATRs of it (or overlaps it)
    return (z, sr, s, i, options) =>
      htfZones(s, i, options).some((h) => h.low <= z.high + v * sr.atr && h.high >= z.low - v * sr.atr);
  }
  if (g.filter === 'touches') return (z) => z.touches >= v;
  if (g.filter === 'strength') return (z) => z.strength >= v;
  return (z, sr) => {
    const bins = sr.volume_profile.bins;
    const range = bins[bins.length - 1].high - bins[0].low;
    const weight = sr.volume_profile.total_volume;
    if (!(range > 0) || !(weight > 0) || !(z.high > z.low)) return true;
    return z.volume / (z.high - z.low) >= (v * weight) / range;
  };
}

/**
 * The training edge of a detection: over every series and side, the detected bounces minus the
 * null's expected bounces (mean of `shuffles` seeded shuffles), per tested zone, in points; also
 * on each half of the training part (by time), the check that a gain is not one period's luck.
 */
function trainingEdge(series, options, filter, shuffles, extra = null) {
  const acc = [0, 1, 2].map(() => ({ excess: 0, tested: 0 }));
  const rows = [];
  for (const s of series) {
    const ev = zoneEvents(s, 'train', { ...LEVEL_BASE, ...options }, filter, extra);
    const { from, to } = partRange(s, 'train');
    const mid = (from + to) / 2;
    for (const kind of SIDES) {
      const parts = [ev[kind], ev[kind].filter((e) => e.i < mid), ev[kind].filter((e) => e.i >= mid)];
      parts.forEach((events, h) => {
        const t = permutationTest(s, kind, events, { shuffles, seed: 7 });
        if (t.observed.tested === 0) return;
        acc[h].excess += t.observed.bounce - t.nullMean * t.observed.tested;
        acc[h].tested += t.observed.tested;
        if (h === 0) rows.push({ series: s.name, kind, ...t });
      });
    }
  }
  const [all, first, second] = acc.map((a) => (a.tested ? a.excess / a.tested : Number.NaN));
  return { edge: all, halves: [first, second], tested: acc[0].tested, rows };
}

/**
 * Coordinate ascent over LEVEL_GRID on the training parts (`shuffles` per evaluation): each
 * parameter in turn takes the value with the best training edge given the choices so far, when it
 * beats the current edge by more than `minGain` points and on both halves of the training part.
 * Returns every tried value with its training edge, and the chosen options and filters.
 */
export function searchLevels(series, { shuffles = 100, minGain = 0.5 } = {}) {
  const chosen = {};
  const filters = {};
  const filterFn = () => {
    const fs = Object.entries(filters).map(([k, v]) =>
      filterOf(
        LEVEL_GRID.find((g) => g.filter === k),
        v,
      ),
    );
    const live = fs.filter((f) => f !== null);
    return live.length === 0 ? null : (...a) => live.every((f) => f(...a));
  };
  const extraFn = () => extraOf(filters.extra);
  const base = trainingEdge(series, {}, null, shuffles);
  let current = base;
  const rows = [];
  let preMerge = null;
  for (const g of LEVEL_GRID) {
    if (preMerge === null && (g.filter === 'htfConfirm' || g.filter === 'extra'))
      preMerge = { options: { ...LEVEL_BASE, ...chosen }, filter: filterFn(), extra: extraFn(), edge: current.edge };
    const cur = (g.key !== undefined ? chosen[g.key] : filters[g.filter]) ?? g.base;
    const tried = [];
    for (const v of g.values) {
      if (v === cur) {
        tried.push({ ...current, value: v });
        continue;
      }
      const opts = g.key === undefined ? chosen : { ...chosen, [g.key]: v };
      if (g.filter !== undefined) filters[g.filter] = v;
      const pick = { filter: filterFn(), extra: extraFn() };
      const r = trainingEdge(series, opts, pick.filter, shuffles, pick.extra);
      if (g.filter !== undefined) filters[g.filter] = cur;
      tried.push({ ...r, value: v, options: opts, ...pick });
    }
    const ok = tried.filter(
      (t) =>
        t.edge - current.edge > minGain / 100 && t.halves[0] > current.halves[0] && t.halves[1] > current.halves[1],
    );
    if (ok.length > 0) {
      const best = ok.reduce((a, b) => (b.edge > a.edge ? b : a));
      if (g.key !== undefined) chosen[g.key] = best.value;
      else filters[g.filter] = best.value;
      current = best;
    }
    rows.push({ ...g, tried, pick: (g.key !== undefined ? chosen[g.key] : filters[g.filter]) ?? g.base });
  }
  // the merging variant with the best training edge (whether or not the search chose it), on top of
  // the choices made before the merging rows: reported beside the shipped detection
  let merge = null;
  for (const r of rows.filter((g) => g.filter === 'htfConfirm' || g.filter === 'extra')) {
    for (const t of r.tried) {
      if (t.value === r.base || (merge !== null && !(t.edge > merge.edge))) continue;
      const text =
        r.filter === 'extra'
          ? `higher-timeframe zones ${t.value === 'add' ? 'added to the candidates' : 'alone'}`
          : `nearest zone within ${t.value} ATR of a higher-timeframe zone`;
      merge = {
        text,
        kind: r.filter,
        value: t.value,
        edge: t.edge,
        options: { ...LEVEL_BASE, ...t.options },
        filter: t.filter,
        extra: t.extra,
      };
    }
  }
  return {
    base,
    rows,
    chosen,
    filters: { ...filters },
    filter: filterFn(),
    extra: extraFn(),
    final: current,
    merge,
    preMerge,
  };
}
