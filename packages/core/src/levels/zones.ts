import { checkInt, checkNumber } from '../indicators/internal/validate.js';
import type { Candles } from '../types.js';
import { atrColumn, positiveOrNull, prefixCandles } from './internal.js';
import { fractalsInto, type Swing, zigzagInto } from './swings.js';
import { profileOf, type VolumeProfile } from './volume-profile.js';
import { type ZoneDistance, zoneContext } from './zone-context.js';

/** A support or resistance zone: a price band where swings clustered. */
export interface Zone {
  /** `'support'` when the zone's middle is at or below the mark, `'resistance'` above it. */
  kind: 'support' | 'resistance';
  low: number;
  high: number;
  mid: number;
  /** 0..1: touches, decayed by age, scaled by the volume traded inside the zone (see {@link supportResistance}). */
  strength: number;
  /** Number of swing highs and lows inside the zone. */
  touches: number;
  /** Index of the newest swing inside the zone. */
  last_touch_index: number;
  /** Open time of that candle (ms UTC). */
  last_touch_time: number;
  /**
   * Volume traded inside the band over the window (pro rata by price range; candle counts without
   * volume); a profile row without width (a window of one price) counts whole when its price is in the band.
   */
  volume: number;
}

/**
 * The nearest zone entirely on one side of the mark, with its distance from the mark to the
 * zone's near edge (see {@link zoneContext}).
 */
export interface NearestLevel extends Zone, ZoneDistance {}

/** Support and resistance as of one candle. */
export interface SupportResistance {
  /** Index of the last candle read. */
  as_of_index: number;
  /** Open time of that candle (ms UTC). */
  as_of_time: number;
  /** Its close: the reference price for support (below) and resistance (above). */
  mark: number;
  /** ATR at that candle; null during the warm-up. */
  atr: number | null;
  /** The strongest zones (at most `maxZones`), sorted by price from the lowest; they never overlap. */
  zones: Zone[];
  /** The zone whose band holds the mark (`low <= mark <= high`), or null: neither support nor resistance. */
  inside: Zone | null;
  /** The nearest zone entirely below the mark, or null. */
  nearest_support: NearestLevel | null;
  /** The nearest zone entirely above the mark, or null. */
  nearest_resistance: NearestLevel | null;
  /** Volume profile of the same window. */
  volume_profile: VolumeProfile;
}

/** Options of {@link supportResistance}. */
export interface SupportResistanceOptions {
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
  /** Number of candles, ending at `asOf`, searched for swings. Default 500. */
  window?: number;
  /** Fractal candles on each side. Default 2. */
  fractalSpan?: number;
  /** ATR period. Default 14. Ignored when `atr` is given. */
  atrPeriod?: number;
  /** A precomputed ATR column aligned with the candles (saves a pass when the caller has it). */
  atr?: ArrayLike<number>;
  /** Zigzag reversal in ATRs; its pivots are the major swings. Default 2. */
  zigzagAtr?: number;
  /** Neighbouring swing prices further apart than this many ATRs start a new zone. Default 0.5. */
  clusterAtr?: number;
  /** A zone wider than this many ATRs is split at its largest gap. Default 1. */
  maxWidthAtr?: number;
  /** Narrower zones are widened to this many ATRs (never into a neighbour). Default 0.2. */
  minWidthAtr?: number;
  /** Age in candles at which a touch counts half. Default 100. */
  halfLife?: number;
  /** Number of zones kept (the strongest). Default 12. */
  maxZones?: number;
  /** Rows of the volume profile. Default 24. */
  profileBins?: number;
  /** Value-area share of the volume profile. Default 0.7. */
  valueArea?: number;
}

/** Resolved options. */
interface Params {
  window: number;
  span: number;
  atrPeriod: number;
  zigzagAtr: number;
  clusterAtr: number;
  maxWidthAtr: number;
  minWidthAtr: number;
  halfLife: number;
  maxZones: number;
  profileBins: number;
  valueArea: number;
}

function paramsOf(o: SupportResistanceOptions | undefined): Params {
  return {
    window: checkInt('window', o?.window ?? 500, 3, 1e9),
    span: checkInt('fractalSpan', o?.fractalSpan ?? 2, 1, 1000),
    atrPeriod: checkInt('atrPeriod', o?.atrPeriod ?? 14, 1),
    zigzagAtr: checkNumber('zigzagAtr', o?.zigzagAtr ?? 2, Number.MIN_VALUE, 1000),
    clusterAtr: checkNumber('clusterAtr', o?.clusterAtr ?? 0.5, 0, 1000),
    maxWidthAtr: checkNumber('maxWidthAtr', o?.maxWidthAtr ?? 1, 0, 1000),
    minWidthAtr: checkNumber('minWidthAtr', o?.minWidthAtr ?? 0.2, 0, 1000),
    halfLife: checkNumber('halfLife', o?.halfLife ?? 100, Number.MIN_VALUE, 1e9),
    maxZones: checkInt('maxZones', o?.maxZones ?? 12, 1, 10_000),
    profileBins: checkInt('profileBins', o?.profileBins ?? 24, 1, 10_000),
    valueArea: checkNumber('valueArea', o?.valueArea ?? 0.7, Number.MIN_VALUE, 1),
  };
}

/** A cluster of swing points: `[from, to]` in the price-sorted order. */
interface Cluster {
  from: number;
  to: number;
}

/**
 * Splits the price-sorted points `[from, to]` into clusters: at every gap wider than `tol`, then
 * recursively at the widest gap(s) of any cluster wider than `maxWidth`. Both rules only look at
 * gaps, so clustering a mirrored price series gives the mirrored clusters.
 */
function clusterInto(p: Float64Array, from: number, to: number, tol: number, maxWidth: number, out: Cluster[]): void {
  let runStart = from;
  for (let k = from; k <= to; k++) {
    if (k === to || p[k + 1] - p[k] > tol) {
      splitWide(p, runStart, k, maxWidth, out);
      runStart = k + 1;
    }
  }
}

function splitWide(p: Float64Array, from: number, to: number, maxWidth: number, out: Cluster[]): void {
  if (p[to] - p[from] <= maxWidth) {
    out.push({ from, to });
    return;
  }
  let widest = 0;
  for (let k = from; k < to; k++) if (p[k + 1] - p[k] > widest) widest = p[k + 1] - p[k];
  let start = from;
  for (let k = from; k < to; k++) {
    if (p[k + 1] - p[k] === widest) {
      splitWide(p, start, k, maxWidth, out);
      start = k + 1;
    }
  }
  splitWide(p, start, to, maxWidth, out);
}

/** Volume of the profile rows inside `[a, b]`, pro rata for partly covered rows. */
function volumeInside(profile: VolumeProfile, a: number, b: number): number {
  let v = 0;
  for (const bin of profile.bins) {
    const width = bin.high - bin.low;
    if (width === 0) {
      if (bin.low >= a && bin.low <= b) v += bin.volume;
      continue;
    }
    const overlap = Math.min(b, bin.high) - Math.max(a, bin.low);
    if (overlap > 0) v += (bin.volume * overlap) / width;
  }
  return v;
}

/**
 * Support and resistance zones from clustered swing points, as of one candle.
 *
 * 1. Swings over the last `window` candles: Williams fractals (minor, weight 1) and the pivots of
 *    an ATR zigzag (major, weight 2; a fractal at the same candle counts once, as major). Only swings
 *    confirmed by `asOf` are used, so the result never depends on later candles.
 * 2. Swing prices (highs and lows together: old resistance becomes support) sorted and clustered:
 *    a gap above `clusterAtr` ATR starts a new zone; a zone wider than `maxWidthAtr` ATR is split at
 *    its widest gap. A zone spans its swing prices, widened to `minWidthAtr` ATR but never past the
 *    midpoint to its neighbour, so zones never overlap.
 * 3. Strength = `1 - exp(-s / 3)` with `s = sum(weight * 2^(-age / halfLife)) * sqrt(clamp(r, 0.25, 4))`,
 *    where age is the candles since the touch and `r` is the zone's volume per unit of price over the
 *    window's average (volume at price from the window's volume profile).
 * 4. The `maxZones` strongest zones are kept (ties: the later touch, then the nearer to the mark,
 *    so a mirrored series keeps the mirrored zones); a zone's `kind` is support when its middle is at or
 *    below the mark (the last close), else resistance. Where the mark stands among them is
 *    {@link zoneContext}'s: `inside` is the zone holding the mark (neither support nor resistance),
 *    the nearest support the nearest zone entirely below, the nearest resistance the nearest
 *    entirely above, each with its signed distance from the mark to its near edge in % and ATRs.
 *
 * During the ATR warm-up (fewer than `atrPeriod + 1` candles) the zigzag finds nothing, the cluster
 * scale is the mean high-low range of the window, and `atr` / `distance_atr` are null.
 * Defaults: window 500, fractalSpan 2, atrPeriod 14, zigzagAtr 2, clusterAtr 0.5, maxWidthAtr 1,
 * minWidthAtr 0.2, halfLife 100, maxZones 12, profileBins 24, valueArea 0.7.
 * @example
 * ```ts
 * import { supportResistance } from '@marketlens/core';
 *
 * // 300 daily candles of a made-up series; real ones come from @marketlens/exchanges
 * const close = Float64Array.from({ length: 300 }, (_, i) => 100 + i / 10 + 8 * Math.sin(i / 9));
 * const candles = {
 *   time: close.map((_, i) => Date.UTC(2024, 0, 1) + i * 86_400_000),
 *   open: close.map((c, i) => (i > 0 ? close[i - 1] : c)),
 *   high: close.map((c) => c * 1.01),
 *   low: close.map((c) => c * 0.99),
 *   close,
 *   volume: close.map((_, i) => 1000 + (i % 7) * 100),
 * };
 * const levels = supportResistance(candles);
 * for (const z of levels.zones) console.log(z.kind, z.low.toFixed(2), z.high.toFixed(2), z.strength.toFixed(2));
 * console.log(levels.mark, levels.nearest_support?.distance_pct, levels.nearest_resistance?.distance_atr);
 * ```
 */
export function supportResistance(candles: Candles, options?: SupportResistanceOptions): SupportResistance {
  const o = paramsOf(options);
  const { view, end } = prefixCandles(candles, options?.asOf, o.window);
  const atrCol = atrColumn(view, candles.close.length, o.atrPeriod, options?.atr);
  const start = Math.max(0, end - o.window + 1);
  const { high, low, close, time } = view;
  const mark = close[end];
  const atr = positiveOrNull(atrCol[end]);
  let unit = atr ?? 0;
  if (atr === null) {
    for (let i = start; i <= end; i++) unit += high[i] - low[i];
    unit /= end - start + 1;
  }

  // 1. Swing points; majors flagged per candle.
  const swings: Swing[] = [];
  fractalsInto(view, start, end, o.span, o.span, swings);
  const majors: Swing[] = [];
  zigzagInto(view, atrCol, o.zigzagAtr, start, end, majors);
  const len = end - start + 1;
  const majorFlag = new Uint8Array(len); // bit 1: major high, bit 2: major low
  for (const s of majors) majorFlag[s.index - start] |= s.kind === 'high' ? 1 : 2;
  const points: Swing[] = swings;
  const weights: number[] = new Array(swings.length);
  for (let k = 0; k < swings.length; k++) {
    const s = swings[k];
    const bit = s.kind === 'high' ? 1 : 2;
    const at = s.index - start;
    weights[k] = majorFlag[at] & bit ? 2 : 1;
    majorFlag[at] &= ~bit; // a fractal at a pivot counts once
  }
  for (const s of majors) {
    if (majorFlag[s.index - start] & (s.kind === 'high' ? 1 : 2)) {
      points.push(s);
      weights.push(2);
    }
  }

  const profile = profileOf(view, start, end, o.profileBins, o.valueArea);
  const m = points.length;
  if (m === 0) {
    return {
      as_of_index: end,
      as_of_time: time[end],
      mark,
      atr,
      zones: [],
      inside: null,
      nearest_support: null,
      nearest_resistance: null,
      volume_profile: profile,
    };
  }

  // 2. Sort by price (ties by index) and cluster.
  const order = Array.from({ length: m }, (_, k) => k);
  order.sort((a, b) => points[a].price - points[b].price || points[a].index - points[b].index);
  const p = new Float64Array(m);
  for (let k = 0; k < m; k++) p[k] = points[order[k]].price;
  const clusters: Cluster[] = [];
  clusterInto(p, 0, m - 1, o.clusterAtr * unit, o.maxWidthAtr * unit, clusters);

  // 3. Bands (widened without crossing the midpoint to a neighbour) and strength.
  const profileRange = profile.bins[profile.bins.length - 1].high - profile.bins[0].low;
  const profileWeight = profile.basis === 'time' ? len : profile.total_volume;
  const density = profileRange > 0 ? profileWeight / profileRange : 0;
  const minWidth = o.minWidthAtr * unit;
  const decay = Math.LN2 / o.halfLife;
  const all: Zone[] = new Array(clusters.length);
  for (let c = 0; c < clusters.length; c++) {
    const { from, to } = clusters[c];
    let lo = p[from];
    let hi = p[to];
    const pad = (minWidth - (hi - lo)) / 2;
    if (pad > 0) {
      const floor = c > 0 ? (p[clusters[c - 1].to] + lo) / 2 : Number.NEGATIVE_INFINITY;
      const ceil = c + 1 < clusters.length ? (hi + p[clusters[c + 1].from]) / 2 : Number.POSITIVE_INFINITY;
      lo = Math.max(lo - pad, floor);
      hi = Math.min(hi + pad, ceil);
    }
    let score = 0;
    let last = -1;
    for (let k = from; k <= to; k++) {
      const j = order[k];
      const idx = points[j].index;
      score += weights[j] * Math.exp(-decay * (end - idx));
      if (idx > last) last = idx;
    }
    const volume = volumeInside(profile, lo, hi);
    let ratio = 1;
    if (hi > lo && density > 0) ratio = Math.min(4, Math.max(0.25, volume / (hi - lo) / density));
    const mid = (lo + hi) / 2;
    all[c] = {
      kind: mid <= mark ? 'support' : 'resistance',
      low: lo,
      high: hi,
      mid,
      strength: 1 - Math.exp(-(score * Math.sqrt(ratio)) / 3),
      touches: to - from + 1,
      last_touch_index: last,
      last_touch_time: time[last],
      volume,
    };
  }

  // 4. Keep the strongest, in price order; nearest on each side.
  let zones = all;
  if (all.length > o.maxZones) {
    const rank = Array.from({ length: all.length }, (_, k) => k);
    // ties: the later touch, then the zone nearer the mark (the same choice on a mirrored series;
    // the lower price first would keep supports over resistances), then the lower price
    rank.sort(
      (a, b) =>
        all[b].strength - all[a].strength ||
        all[b].last_touch_index - all[a].last_touch_index ||
        Math.abs(all[a].mid - mark) - Math.abs(all[b].mid - mark) ||
        a - b,
    );
    const keep = rank.slice(0, o.maxZones).sort((a, b) => a - b);
    zones = keep.map((k) => all[k]);
  }
  const where = zoneContext(zones, mark, atr);
  return {
    as_of_index: end,
    as_of_time: time[end],
    mark,
    atr,
    zones,
    inside: where.inside,
    nearest_support: where.below,
    nearest_resistance: where.above,
    volume_profile: profile,
  };
}
