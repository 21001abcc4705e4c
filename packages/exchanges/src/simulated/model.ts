/**
 * The price model of the simulated venue: candles are a pure function of (asset, timeframe, time).
 *
 * Prices are generated top-down so that every timeframe aggregates the finer ones exactly:
 *
 * 1. A daily path per asset, walked once from {@link GENESIS} and cached (append-only, so a day's
 *    bar depends only on the seed and the days before it, never on when it was computed). The walk
 *    has a shared factor per group (crypto, equities, the dollar) for cross-asset correlation, a
 *    stochastic log-volatility fed by past shocks (volatility clustering), Markov bull/bear/range
 *    regimes (trends), mean reversion to a realistic level, rare jumps, and a volume that rises
 *    with the absolute return and with volatility.
 * 2. Each daily bar is split into 24 h1 bars, each h1 into 4 m15, each m15 into 3 m5 by a
 *    conditioned bridge ({@link splitBar}): a Brownian bridge from open to close, wicks, then a
 *    monotone map onto the parent's [low, high] so the children's first open, last close, highest
 *    high and lowest low are the parent's exactly. Volumes are integer counts of a power-of-two
 *    lot split without remainder, so sums are exact in floating point too.
 * 3. m30, h4 and w1 aggregate m15, h1 and d1. The live candle aggregates finished finer bars plus
 *    a prefix of the current m5 bar's tick path (open, one extreme, the other, close), so the price
 *    moves with the injected clock and a finished candle never changes.
 *
 * Randomness is counter-based (`prng.ts`): draws are addressed by (seed, stream, bar index).
 */
import type { Candles } from '@marketlens/core';
import { TIMEFRAME_MS, type Timeframe } from '../ports.js';
import type { FactorGroup, SimParams } from './params.js';
import { normal, seedOf, uniform } from './prng.js';

const DAY = 86_400_000;
const H1 = 3_600_000;
const M15 = 900_000;
const M5 = 300_000;

/** The generated level each timeframe aggregates. */
const BASE_STEP: Readonly<Record<Timeframe, number>> = {
  m5: M5,
  m15: M15,
  m30: M15,
  h1: H1,
  h4: H1,
  d1: DAY,
  w1: DAY,
};

/** Weekend volatility of a stock or an fx pair relative to a weekday's. */
const WEEKEND_CALM = 0.3;

/** First simulated day: Monday 2006-01-02 UTC. Nothing is served before it. */
export const GENESIS = Date.UTC(2006, 0, 2);

// Stream ids: one per kind of draw so no two draws share an address.
const S_SHOCK = 1;
const S_GVOL = 2;
const S_GREG = 3;
const S_GREG2 = 4;
const S_IDIO = 10;
const S_JUMP = 11;
const S_JUMP2 = 12;
const S_VOL = 13;
const S_REG = 14;
const S_REG2 = 15;
const S_VOLU = 16;
const S_HI = 17;
const S_LO = 18;
const S_INIT = 19;
const S_LEVEL = 100; // + level: bridge increments
const S_WICK_H = 110;
const S_WICK_L = 120;
const S_VWEIGHT = 130;
const S_PROFILE = 140;
const S_TICK = 150;

/** OHLC and volume counts of a run of bars (volume = counts x lot). */
export interface Bars {
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  counts: Float64Array;
}

function newBars(n: number): Bars {
  return {
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    counts: new Float64Array(n),
  };
}

/** One aggregated bar. */
export interface Bar {
  open: number;
  high: number;
  low: number;
  close: number;
  /** Base volume (counts x lot; fractional for a live bar). */
  volume: number;
}

interface GroupPath {
  n: number;
  shock: Float64Array;
  vol: Float64Array;
  /** Regime drift sign: +1 bull, -1 bear, 0 range. */
  regime: Int8Array;
}

interface DailyPath {
  n: number;
  bars: Bars;
  sig: Float64Array;
  x: number;
  s: number;
  zPrev: number;
  regime: number;
}

interface AssetModel {
  params: SimParams;
  seed: number;
  lot: number;
  baseCounts: number;
  logAnchor: number;
  kappa: number;
  /** Decimal places prices are rounded to (a venue's tick). */
  scale: number;
  profile: Float64Array;
  daily: DailyPath;
}

/** The h1 vol/volume profile over the UTC day for each class of market. */
function hourProfile(params: SimParams): Float64Array {
  const p = new Float64Array(24);
  for (let h = 0; h < 24; h++) {
    let w = 1;
    if (params.group === 'none') w = 1;
    else if (params.asset_class === 'stocks') w = h >= 13 && h < 20 ? 1.9 : h >= 11 && h < 22 ? 0.8 : 0.35;
    else if (params.asset_class === 'fx') w = h < 7 ? 0.55 : h < 12 ? 1.2 : h < 16 ? 1.5 : h < 20 ? 0.9 : 0.5;
    else w = 0.8 + (h >= 13 && h < 21 ? 0.45 : 0) + (h >= 7 && h < 11 ? 0.15 : 0);
    p[h] = w;
  }
  return p;
}

function growBars(b: Bars, cap: number, n: number): Bars {
  const out = newBars(cap);
  out.open.set(b.open.subarray(0, n));
  out.high.set(b.high.subarray(0, n));
  out.low.set(b.low.subarray(0, n));
  out.close.set(b.close.subarray(0, n));
  out.counts.set(b.counts.subarray(0, n));
  return out;
}

function growF64(a: Float64Array, cap: number, n: number): Float64Array {
  const out = new Float64Array(cap);
  out.set(a.subarray(0, n));
  return out;
}

/** A bounded memo: drops the oldest entries once full. */
class Memo<V> {
  private readonly map = new Map<number, V>();
  constructor(private readonly limit: number) {}
  get(key: number, make: () => V): V {
    const hit = this.map.get(key);
    if (hit !== undefined) return hit;
    const value = make();
    if (this.map.size >= this.limit) {
      const oldest = this.map.keys().next();
      if (!oldest.done) this.map.delete(oldest.value);
    }
    this.map.set(key, value);
    return value;
  }
}

/**
 * Splits a parent bar into `n` children whose aggregate is exactly the parent (see the module doc).
 * `weights` shape the per-child volatility (and volume); `first` is the absolute index of the first
 * child, the address of its random draws.
 */
export function splitBar(
  parent: Bar & { counts: number },
  n: number,
  weights: ArrayLike<number>,
  seed: number,
  level: number,
  first: number,
  out: Bars,
  offset: number,
): void {
  const { open: o, high: H, low: L, close: c, counts: N } = parent;
  const path = new Float64Array(n + 1);
  const cumVar = new Float64Array(n + 1);
  const range = Math.log(H / L);
  let totalW2 = 0;
  for (let i = 0; i < n; i++) totalW2 += weights[i] * weights[i];
  const unit = (range > 0 ? range / 1.7 : 1e-9) / Math.sqrt(totalW2);
  let s = 0;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const sd = weights[i] * unit;
    s += sd * normal(seed, S_LEVEL + level, first + i);
    v += sd * sd;
    path[i + 1] = s;
    cumVar[i + 1] = v;
  }
  const target = Math.log(c / o);
  const gap = s - target;
  const q = new Float64Array(n + 1);
  q[0] = o;
  for (let k = 1; k < n; k++) q[k] = o * Math.exp(path[k] - (cumVar[k] / v) * gap);
  q[n] = c;
  // Raw wicks, then the monotone map of [minLow, maxHigh] onto [L, H] keeping [min(o,c), max(o,c)] fixed.
  const hiRaw = new Float64Array(n);
  const loRaw = new Float64Array(n);
  let minLo = Number.POSITIVE_INFINITY;
  let maxHi = 0;
  let argLo = 0;
  let argHi = 0;
  for (let i = 0; i < n; i++) {
    const sd = weights[i] * unit;
    const a = q[i] > q[i + 1] ? q[i] : q[i + 1];
    const b = q[i] < q[i + 1] ? q[i] : q[i + 1];
    hiRaw[i] = a * Math.exp(sd * (0.05 + 0.5 * Math.abs(normal(seed, S_WICK_H + level, first + i))));
    loRaw[i] = b * Math.exp(-sd * (0.05 + 0.5 * Math.abs(normal(seed, S_WICK_L + level, first + i))));
    if (hiRaw[i] > maxHi) {
      maxHi = hiRaw[i];
      argHi = i;
    }
    if (loRaw[i] < minLo) {
      minLo = loRaw[i];
      argLo = i;
    }
  }
  const B = o < c ? o : c;
  const C = o > c ? o : c;
  const lowSlope = B > minLo ? (B - L) / (B - minLo) : 0;
  const highSlope = maxHi > C ? (H - C) / (maxHi - C) : 0;
  const map = (x: number): number => (x < B ? L + (x - minLo) * lowSlope : x > C ? C + (x - C) * highSlope : x);
  let prev = o;
  let totalWeight = 0;
  const vw = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const j = offset + i;
    const close = i === n - 1 ? c : map(q[i + 1]);
    let hi = map(hiRaw[i]);
    let lo = map(loRaw[i]);
    if (hi < prev) hi = prev;
    if (hi < close) hi = close;
    if (lo > prev) lo = prev;
    if (lo > close) lo = close;
    if (hi > H) hi = H;
    if (lo < L) lo = L;
    out.open[j] = prev;
    out.close[j] = close;
    out.high[j] = i === argHi ? H : hi;
    out.low[j] = i === argLo ? L : lo;
    // Volume follows the child's activity: its volatility weight, its move and its range.
    const sd = weights[i] * unit;
    const move = Math.abs(Math.log(close / prev)) + 0.3 * Math.log(out.high[j] / out.low[j]);
    const w =
      weights[i] * (0.35 + move / (sd > 0 ? sd : 1)) * Math.exp(0.35 * normal(seed, S_VWEIGHT + level, first + i));
    vw[i] = w;
    totalWeight += w;
    prev = close;
  }
  // Integer split of the parent's counts: floors, the remainder to the heaviest child.
  let given = 0;
  let heaviest = 0;
  for (let i = 0; i < n; i++) {
    const k = Math.floor((N * vw[i]) / totalWeight);
    out.counts[offset + i] = k;
    given += k;
    if (vw[i] > vw[heaviest]) heaviest = i;
  }
  out.counts[offset + heaviest] += N - given;
}

/** Model parameters, caches and candle assembly for a set of assets. */
export interface SimModel {
  /** Whether the model has this asset. */
  has(assetId: string): boolean;
  params(assetId: string): SimParams | undefined;
  /**
   * Candles of `timeframe` opened in [from, to), aligned; the candle containing `now` is the live
   * partial one, none opened after `now` is returned, none before {@link GENESIS}.
   */
  candles(
    assetId: string,
    timeframe: Timeframe,
    from: number,
    to: number,
    now: number,
    factor?: number,
    volumeFactor?: number,
  ): Candles;
  /** The traded price at time `t` (on the tick path of the m5 bar containing it), times `factor`. */
  priceAt(assetId: string, t: number, factor?: number): number;
  /** The price tick of an asset (1 / 10^decimals). */
  tick(assetId: string): number;
  /** Aggregate of [from, to) at time `now` (volume fractional for a partial bar). */
  aggregate(assetId: string, from: number, to: number, now: number): Bar | null;
  /** Volume of `counts`. */
  lot(assetId: string): number;
  /** Rounds a price to the venue's tick for this asset (monotone, so aggregation stays exact). */
  round(assetId: string, price: number): number;
}

/** Builds the model over a list of asset parameters. */
export function createSimModel(list: readonly SimParams[]): SimModel {
  const assets = new Map<string, AssetModel>();
  const groups = new Map<FactorGroup, GroupPath>();
  for (const params of list) {
    const seed = seedOf(params.id);
    const lot = 2 ** Math.round(Math.log2(params.dailyVolume / 4_194_304));
    const kappa = Math.LN2 / params.halfLife;
    const stationary = params.sigma / Math.sqrt(2 * kappa);
    const logAnchor = Math.log(params.anchor);
    const decimals = Math.max(0, 4 - Math.floor(Math.log10(params.anchor)) + (params.asset_class === 'fx' ? 1 : 0));
    assets.set(params.id, {
      params,
      seed,
      lot,
      baseCounts: params.dailyVolume / lot,
      logAnchor,
      kappa,
      scale: 10 ** decimals,
      profile: hourProfile(params),
      daily: {
        n: 0,
        bars: newBars(0),
        sig: new Float64Array(0),
        x: logAnchor + 0.7 * stationary * normal(seed, S_INIT, 0),
        s: 0,
        zPrev: 0,
        regime: 0,
      },
    });
  }

  function group(g: FactorGroup, need: number): GroupPath {
    let path = groups.get(g);
    if (path === undefined) {
      path = { n: 0, shock: new Float64Array(0), vol: new Float64Array(0), regime: new Int8Array(0) };
      groups.set(g, path);
    }
    if (path.n >= need) return path;
    const cap = Math.max(need + 512, path.n * 2);
    const shock = growF64(path.shock, cap, path.n);
    const vol = growF64(path.vol, cap, path.n);
    const regime = new Int8Array(cap);
    regime.set(path.regime.subarray(0, path.n));
    const gseed = seedOf(`group:${g}`);
    for (let i = path.n; i < cap; i++) {
      shock[i] = g === 'none' ? 0 : normal(gseed, S_SHOCK, i);
      const prevVol = i > 0 ? vol[i - 1] : 0;
      const prevShock = i > 0 ? shock[i - 1] : 0;
      let sv = 0.975 * prevVol + 0.16 * (Math.abs(prevShock) - 0.798) + 0.045 * normal(gseed, S_GVOL, i);
      sv = sv < -1 ? -1 : sv > 1.6 ? 1.6 : sv;
      vol[i] = sv;
      let r = i > 0 ? regime[i - 1] : 0;
      if (uniform(gseed, S_GREG, i) < 1 / 75) r = Math.floor(uniform(gseed, S_GREG2, i) * 3) - 1;
      regime[i] = r;
    }
    path.shock = shock;
    path.vol = vol;
    path.regime = regime;
    path.n = cap;
    return path;
  }

  /** Extends the daily walk of an asset to at least `need` days from genesis. */
  function daily(m: AssetModel, need: number): DailyPath {
    const d = m.daily;
    if (d.n >= need) return d;
    const cap = Math.max(need + 64, Math.ceil(d.n * 1.5));
    const { params: p, seed } = m;
    const g = group(p.group, cap);
    const bars = growBars(d.bars, cap, d.n);
    const sigArr = growF64(d.sig, cap, d.n);
    const idio = Math.sqrt(1 - p.beta * p.beta);
    const betaSign = p.beta < 0 ? -1 : 1;
    let { x, s, zPrev, regime } = d;
    for (let i = d.n; i < cap; i++) {
      const zi = normal(seed, S_IDIO, i);
      let z = p.beta * g.shock[i] + idio * zi;
      if (uniform(seed, S_JUMP, i) < 0.012) z *= 2 + uniform(seed, S_JUMP2, i);
      s = 0.96 * s + 0.12 * (Math.abs(zPrev) - 0.798) + 0.05 * normal(seed, S_VOL, i);
      s = s < -1 ? -1 : s > 1.5 ? 1.5 : s;
      zPrev = zi;
      if (uniform(seed, S_REG, i) < 1 / 90) regime = Math.floor(uniform(seed, S_REG2, i) * 3) - 1;
      // Stocks and fx hardly move over a weekend, when only their perpetuals trade (genesis is a Monday).
      const calm = i % 7 >= 5 && (p.asset_class === 'stocks' || p.asset_class === 'fx') ? WEEKEND_CALM : 1;
      const sig = calm * p.sigma * Math.exp((p.group === 'none' ? 0 : 0.7 * g.vol[i]) + 0.45 * s - 0.1);
      const groupRegime = g.regime[i] * betaSign;
      const drift = p.group === 'none' ? 0 : calm * p.sigma * (0.06 * groupRegime + 0.04 * regime);
      const kappa = groupRegime === 0 && regime === 0 ? m.kappa * 1.5 : m.kappa;
      // Linear reversion plus a cubic term that only bites far from the anchor: free trends, bounded levels.
      const dev = x - m.logAnchor;
      const r = drift + sig * z - kappa * dev - 0.03 * dev * dev * dev;
      const open = Math.exp(x);
      x += r;
      const close = Math.exp(x);
      const hiExt = sig * (0.1 + 0.45 * Math.abs(normal(seed, S_HI, i)));
      const loExt = sig * (0.1 + 0.45 * Math.abs(normal(seed, S_LO, i)));
      bars.open[i] = open;
      bars.close[i] = close;
      bars.high[i] = (open > close ? open : close) * Math.exp(hiExt);
      bars.low[i] = (open < close ? open : close) * Math.exp(-loExt);
      const activity = Math.exp(0.6 * Math.log(sig / p.sigma)) * (0.65 + 0.5 * Math.abs(z));
      bars.counts[i] = Math.max(1, Math.round(m.baseCounts * activity * Math.exp(0.4 * normal(seed, S_VOLU, i))));
      sigArr[i] = sig;
    }
    d.bars = bars;
    d.sig = sigArr;
    d.n = cap;
    d.x = x;
    d.s = s;
    d.zPrev = zPrev;
    d.regime = regime;
    return d;
  }

  const hourMemo = new Memo<Bars>(4096);
  const quarterMemo = new Memo<Bars>(16384);
  const fiveMemo = new Memo<Bars>(16384);
  const ids = new Map<string, number>();
  for (const id of assets.keys()) ids.set(id, ids.size);

  function model(assetId: string): AssetModel {
    const m = assets.get(assetId);
    if (m === undefined) throw new Error(`simulated model has no asset ${assetId}`);
    return m;
  }

  function dayBar(m: AssetModel, day: number): Bar & { counts: number } {
    const d = daily(m, day + 1);
    const b = d.bars;
    return {
      open: b.open[day],
      high: b.high[day],
      low: b.low[day],
      close: b.close[day],
      counts: b.counts[day],
      volume: 0,
    };
  }

  function at(b: Bars, i: number): Bar & { counts: number } {
    return { open: b.open[i], high: b.high[i], low: b.low[i], close: b.close[i], counts: b.counts[i], volume: 0 };
  }

  /** The 24 h1 bars of a day (index from genesis). */
  function hours(m: AssetModel, day: number): Bars {
    const key = (ids.get(m.params.id) ?? 0) * 1e6 + day;
    return hourMemo.get(key, () => {
      const out = newBars(24);
      const w = new Float64Array(24);
      let a = 0;
      const first = day * 24;
      for (let h = 0; h < 24; h++) {
        // Intraday clustering: an AR(1) log-vol across the hours of the day.
        a = 0.75 * a + 0.66 * normal(m.seed, S_PROFILE, first + h);
        w[h] = m.profile[h] * Math.exp(0.3 * a);
      }
      splitBar(dayBar(m, day), 24, w, m.seed, 1, first, out, 0);
      return out;
    });
  }

  function subWeights(m: AssetModel, n: number, level: number, first: number): Float64Array {
    const w = new Float64Array(n);
    for (let i = 0; i < n; i++) w[i] = Math.exp(0.25 * normal(m.seed, S_PROFILE + level, first + i));
    return w;
  }

  /** The 4 m15 bars of an hour (index from genesis). */
  function quarters(m: AssetModel, hour: number): Bars {
    const key = (ids.get(m.params.id) ?? 0) * 1e8 + hour;
    return quarterMemo.get(key, () => {
      const out = newBars(4);
      const parent = at(hours(m, Math.floor(hour / 24)), hour % 24);
      splitBar(parent, 4, subWeights(m, 4, 2, hour * 4), m.seed, 2, hour * 4, out, 0);
      return out;
    });
  }

  /** The 3 m5 bars of a quarter hour (index from genesis). */
  function fives(m: AssetModel, quarter: number): Bars {
    const key = (ids.get(m.params.id) ?? 0) * 1e9 + quarter;
    return fiveMemo.get(key, () => {
      const out = newBars(3);
      const parent = at(quarters(m, Math.floor(quarter / 4)), quarter % 4);
      splitBar(parent, 3, subWeights(m, 3, 3, quarter * 3), m.seed, 3, quarter * 3, out, 0);
      return out;
    });
  }

  /** Finished bars of a base level, indices [i0, i1) counted from genesis. */
  function baseBars(m: AssetModel, step: number, i0: number, i1: number): Bars {
    const n = Math.max(0, i1 - i0);
    if (step === DAY) {
      const d = daily(m, i1);
      const b = d.bars;
      return {
        open: b.open.slice(i0, i1),
        high: b.high.slice(i0, i1),
        low: b.low.slice(i0, i1),
        close: b.close.slice(i0, i1),
        counts: b.counts.slice(i0, i1),
      };
    }
    const out = newBars(n);
    const per = step === H1 ? 24 : step === M15 ? 4 : 3;
    const source = step === H1 ? hours : step === M15 ? quarters : fives;
    let j = 0;
    let i = i0;
    while (i < i1) {
      const parent = Math.floor(i / per);
      const src = source(m, parent);
      const k0 = i - parent * per;
      const k1 = Math.min(per, i1 - parent * per);
      for (let k = k0; k < k1; k++, j++) {
        out.open[j] = src.open[k];
        out.high[j] = src.high[k];
        out.low[j] = src.low[k];
        out.close[j] = src.close[k];
        out.counts[j] = src.counts[k];
      }
      i = parent * per + k1;
    }
    return out;
  }

  /** The tick path of one m5 bar: open, one extreme, the other, close, at hashed times. */
  function tickPath(m: AssetModel, five: number, b: Bar): { t: number[]; p: number[] } {
    const u = uniform(m.seed, S_TICK, five);
    // A rising bar more often visits its low first.
    const lowFirst = b.close >= b.open ? u < 0.7 : u < 0.3;
    const t1 = 0.15 + 0.3 * uniform(m.seed, S_TICK + 1, five);
    const t2 = 0.55 + 0.3 * uniform(m.seed, S_TICK + 2, five);
    return {
      t: [0, t1, t2, 1],
      p: lowFirst ? [b.open, b.low, b.high, b.close] : [b.open, b.high, b.low, b.close],
    };
  }

  /** The prefix of an m5 bar up to fraction f in [0, 1]. */
  function partialFive(m: AssetModel, five: number, f: number): Bar {
    const src = fives(m, Math.floor(five / 3));
    const k = five % 3;
    const full: Bar = { open: src.open[k], high: src.high[k], low: src.low[k], close: src.close[k], volume: 0 };
    const { t, p } = tickPath(m, five, full);
    let hi = p[0];
    let lo = p[0];
    let price = p[0];
    for (let s = 1; s < 4; s++) {
      if (f >= t[s]) {
        price = p[s];
      } else {
        price = p[s - 1] + ((p[s] - p[s - 1]) * (f - t[s - 1])) / (t[s] - t[s - 1]);
      }
      if (price > hi) hi = price;
      if (price < lo) lo = price;
      if (f < t[s]) break;
    }
    if (f >= 1)
      return { open: full.open, high: full.high, low: full.low, close: full.close, volume: src.counts[k] * m.lot };
    return { open: p[0], high: hi, low: lo, close: price, volume: src.counts[k] * m.lot * f };
  }

  function merge(acc: Bar | null, b: Bar): Bar {
    if (acc === null) return { ...b };
    return {
      open: acc.open,
      high: b.high > acc.high ? b.high : acc.high,
      low: b.low < acc.low ? b.low : acc.low,
      close: b.close,
      volume: acc.volume + b.volume,
    };
  }

  /** Aggregate of [from, to) with `to` <= now allowed partial; `from` aligned to m5. */
  function aggregate(assetId: string, fromIn: number, toIn: number, now: number): Bar | null {
    const m = model(assetId);
    const from = Math.max(GENESIS, Math.ceil(fromIn / M5) * M5);
    const to = Math.min(toIn, now);
    if (to <= from) return null;
    let acc: Bar | null = null;
    let t = from;
    const run = (step: number, until: number): void => {
      if (until <= t) return;
      const b = baseBars(m, step, (t - GENESIS) / step, (until - GENESIS) / step);
      for (let i = 0; i < b.open.length; i++) {
        acc = merge(acc, {
          open: b.open[i],
          high: b.high[i],
          low: b.low[i],
          close: b.close[i],
          volume: b.counts[i] * m.lot,
        });
      }
      t = until;
    };
    // Climb to coarser bars while the range allows, then descend to finer ones towards its end.
    const steps = [M5, M15, H1, DAY];
    for (let s = 0; s < 3; s++) {
      const next = steps[s + 1];
      run(steps[s], Math.min(Math.ceil(t / next) * next, Math.floor(to / steps[s]) * steps[s]));
    }
    for (let s = 3; s >= 0; s--) run(steps[s], Math.floor(to / steps[s]) * steps[s]);
    if (t < to) {
      // t is m5-aligned here: the unaligned head of a non-day-aligned range goes through the finer levels.
      acc = merge(acc, partialFive(m, (t - GENESIS) / M5, (to - t) / M5));
    }
    return acc;
  }

  function candles(
    assetId: string,
    timeframe: Timeframe,
    fromIn: number,
    toIn: number,
    now: number,
    factor = 1,
    volumeFactor = 1,
  ): Candles {
    const m = model(assetId);
    const step = TIMEFRAME_MS[timeframe];
    // Every timeframe aligns on genesis (a Monday 00:00 UTC), which is how UTC buckets align too.
    const first = Math.max(0, Math.ceil((fromIn - GENESIS) / step));
    const last = Math.floor((Math.min(toIn - 1, now) - GENESIS) / step); // inclusive
    const n = Math.max(0, last - first + 1);
    const out: Candles = {
      time: new Float64Array(n),
      open: new Float64Array(n),
      high: new Float64Array(n),
      low: new Float64Array(n),
      close: new Float64Array(n),
      volume: new Float64Array(n),
    };
    if (n === 0) return out;
    const liveStart = GENESIS + last * step;
    const finished = liveStart + step <= now ? n : n - 1;
    const base = BASE_STEP[timeframe];
    const per = step / base;
    if (finished > 0) {
      const b = baseBars(m, base, first * per, (first + finished) * per);
      for (let i = 0; i < finished; i++) {
        const k0 = i * per;
        let hi = b.high[k0];
        let lo = b.low[k0];
        let cnt = 0;
        for (let k = k0; k < k0 + per; k++) {
          if (b.high[k] > hi) hi = b.high[k];
          if (b.low[k] < lo) lo = b.low[k];
          cnt += b.counts[k];
        }
        out.open[i] = b.open[k0];
        out.high[i] = hi;
        out.low[i] = lo;
        out.close[i] = b.close[k0 + per - 1];
        out.volume[i] = cnt * m.lot;
      }
    }
    if (finished < n) {
      const live =
        aggregate(assetId, liveStart, liveStart + step, now) ?? partialFive(m, (liveStart - GENESIS) / M5, 0);
      const i = n - 1;
      out.open[i] = live.open;
      out.high[i] = live.high;
      out.low[i] = live.low;
      out.close[i] = live.close;
      out.volume[i] = live.volume;
    }
    for (let i = 0; i < n; i++) {
      out.time[i] = GENESIS + (first + i) * step;
      out.open[i] = roundTo(m.scale, out.open[i] * factor);
      out.high[i] = roundTo(m.scale, out.high[i] * factor);
      out.low[i] = roundTo(m.scale, out.low[i] * factor);
      out.close[i] = roundTo(m.scale, out.close[i] * factor);
      out.volume[i] *= volumeFactor;
    }
    return out;
  }

  function priceAt(assetId: string, t: number, factor = 1): number {
    const m = model(assetId);
    if (t < GENESIS) throw new Error('before the simulated genesis');
    const five = Math.floor((t - GENESIS) / M5);
    const f = (t - GENESIS - five * M5) / M5;
    return roundTo(m.scale, partialFive(m, five, f).close * factor);
  }

  return {
    has: (id) => assets.has(id),
    params: (id) => assets.get(id)?.params,
    candles,
    priceAt,
    aggregate,
    lot: (id) => model(id).lot,
    round: (id, price) => roundTo(model(id).scale, price),
    tick: (id) => 1 / model(id).scale,
  };
}

/** Monotone rounding to 1/scale (scale a power of ten); dividing by the integer scale is correctly rounded. */
function roundTo(scale: number, x: number): number {
  return Math.round(x * scale) / scale;
}

/** The day index (from genesis) of a time. Exported for tests. */
export function dayIndex(t: number): number {
  return Math.floor((t - GENESIS) / DAY);
}
