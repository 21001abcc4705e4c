import { InputError } from '../errors.js';
import { checkInt, checkNumber } from '../indicators/internal/validate.js';
import type { Candles } from '../types.js';
import { type OpenGap, openGapsInto } from './gaps.js';
import { higherSwingsInto, higherTimeframeOf, timeframeOf } from './higher-timeframe.js';
import { atrColumn, positiveOrNull, prefixCandles } from './internal.js';
import { type RangeExtremes, scanRange } from './range.js';
import { fractalsInto, type Swing, zigzagInto } from './swings.js';
import { profileOf, type VolumeProfile } from './volume-profile.js';
import { type ZoneDistance, zoneContext } from './zone-context.js';

/**
 * What made a zone: `swing` (swing highs and lows clustered there), `gap` (a price gap not filled
 * since), `all_time_high` / `all_time_low` (the extremes of the whole stored history before the
 * as-of candle), `high_52w` / `low_52w` (of its last 52 weeks), `volume_node` (the volume profile's point of
 * control lies in it). A zone may have several.
 */
export type ZoneSource = 'swing' | 'gap' | 'all_time_high' | 'all_time_low' | 'high_52w' | 'low_52w' | 'volume_node';

/** Every zone source, in the order a zone lists them. */
export const ZONE_SOURCES: readonly ZoneSource[] = [
  'swing',
  'gap',
  'all_time_high',
  'all_time_low',
  'high_52w',
  'low_52w',
  'volume_node',
];

/** A support or resistance zone: a price band where swings clustered, a gap, or a range extreme. */
export interface Zone {
  /** `'support'` when the zone's middle is at or below the mark, `'resistance'` above it. */
  kind: 'support' | 'resistance';
  low: number;
  high: number;
  mid: number;
  /** 0..1: touches, decayed by age, scaled by the volume traded inside the zone (see {@link supportResistance}). */
  strength: number;
  /** Number of swing highs and lows inside the zone (0 for a zone made only by a gap or an extreme). */
  touches: number;
  /** Index of the newest swing inside the zone (of the gap's or the extreme's candle without one). */
  last_touch_index: number;
  /** Open time of that candle (ms UTC). */
  last_touch_time: number;
  /**
   * Volume traded inside the band over the window (pro rata by price range; candle counts without
   * volume); a profile row without width (a window of one price) counts whole when its price is in the band.
   */
  volume: number;
  /** What made the zone, in {@link ZONE_SOURCES} order; never empty. */
  sources: ZoneSource[];
  /**
   * The timeframe of the candles it was found on: the higher timeframe (`'w1'` for daily candles,
   * `'d1'` for intraday ones) when a swing of it lies in the zone, else the candles' own
   * (`'m5'` .. `'w1'`, from their spacing); null when the spacing is none of those.
   */
  timeframe: string | null;
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
  /**
   * The zones kept (at most `maxZones` supports and `maxZones` resistances, by `kind`), sorted by
   * price from the lowest; they never overlap. See {@link supportResistance} for the choice.
   */
  zones: Zone[];
  /** The zone whose band holds the mark (`low <= mark <= high`), or null: neither support nor resistance. */
  inside: Zone | null;
  /** The nearest zone entirely below the mark, or null. */
  nearest_support: NearestLevel | null;
  /** The nearest zone entirely above the mark, or null. */
  nearest_resistance: NearestLevel | null;
  /** Volume profile of the same window. */
  volume_profile: VolumeProfile;
  /** The extremes of the whole history read (candles `0..as_of_index`, not only the window). */
  range: RangeExtremes;
  /**
   * True when the mark is at or above the high of every earlier stored candle: no stored
   * structure lies above, so an empty resistance side (or one holding only the as-of candle's own
   * high) says that, not a lack of data. False with one candle.
   */
  at_all_time_high: boolean;
  /** Mirrors `at_all_time_high`: the mark at or below the low of every earlier stored candle. */
  at_all_time_low: boolean;
  /** The candles' timeframe (from their spacing), null when unrecognised. */
  timeframe: string | null;
  /** The timeframe whose swings took part (see `higherTimeframe`), null when none did. */
  higher_timeframe: string | null;
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
  /**
   * With `bySide`: zones kept on each side of the mark (default 4). Without: the number of zones
   * kept, the strongest (default 12).
   */
  maxZones?: number;
  /**
   * The levels a chartist draws (issue 38): kept by side and distance (see `nearestPerSide`,
   * `reachAtr`), with the range extremes, open gaps and the higher timeframe's swings. Default true;
   * false keeps the strongest `maxZones` swing zones of the window (the levels before issue 38).
   */
  bySide?: boolean;
  /** The nearest zones on each side that are always kept (within `reachAtr`). Default 2. */
  nearestPerSide?: number;
  /**
   * Reach in ATRs from the mark to a zone's near edge: farther zones are kept only when a side
   * would otherwise be empty (then its nearest one). Default 10.
   */
  reachAtr?: number;
  /** A range extreme within this many ATRs of a zone joins it instead of making its own. Default 0.25. */
  mergeAtr?: number;
  /** Open gaps narrower than this many ATRs are not levels. Default 0.25. */
  minGapAtr?: number;
  /**
   * Whether the swings of the next higher timeframe (weekly for daily candles, daily for
   * intraday ones), resampled here from the whole history's closed buckets, take part. Default true.
   */
  higherTimeframe?: boolean;
  /** Whether the all-time and 52-week highs and lows take part as levels. Default true. */
  rangeExtremes?: boolean;
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
  bySide: boolean;
  nearest: number;
  reach: number;
  merge: number;
  minGap: number;
  higher: boolean;
  extremes: boolean;
  profileBins: number;
  valueArea: number;
}

function checkBoolean(name: string, value: unknown): boolean {
  if (typeof value !== 'boolean') {
    throw new InputError('invalid_option', `${name} must be true or false, got ${String(value)}`, name);
  }
  return value;
}

function paramsOf(o: SupportResistanceOptions | undefined): Params {
  const bySide = checkBoolean('bySide', o?.bySide ?? true);
  return {
    bySide,
    window: checkInt('window', o?.window ?? 500, 3, 1e9),
    span: checkInt('fractalSpan', o?.fractalSpan ?? 2, 1, 1000),
    atrPeriod: checkInt('atrPeriod', o?.atrPeriod ?? 14, 1),
    zigzagAtr: checkNumber('zigzagAtr', o?.zigzagAtr ?? 2, Number.MIN_VALUE, 1000),
    clusterAtr: checkNumber('clusterAtr', o?.clusterAtr ?? 0.5, 0, 1000),
    maxWidthAtr: checkNumber('maxWidthAtr', o?.maxWidthAtr ?? 1, 0, 1000),
    minWidthAtr: checkNumber('minWidthAtr', o?.minWidthAtr ?? 0.2, 0, 1000),
    halfLife: checkNumber('halfLife', o?.halfLife ?? 100, Number.MIN_VALUE, 1e9),
    maxZones: checkInt('maxZones', o?.maxZones ?? (bySide ? 4 : 12), 1, 10_000),
    nearest: checkInt('nearestPerSide', o?.nearestPerSide ?? 2, 0, 10_000),
    reach: checkNumber('reachAtr', o?.reachAtr ?? 10, 0, 1e6),
    merge: checkNumber('mergeAtr', o?.mergeAtr ?? 0.25, 0, 1000),
    minGap: checkNumber('minGapAtr', o?.minGapAtr ?? 0.25, 0, 1000),
    higher: checkBoolean('higherTimeframe', o?.higherTimeframe ?? bySide),
    extremes: checkBoolean('rangeExtremes', o?.rangeExtremes ?? bySide),
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
 * 4. Higher timeframe (`higherTimeframe`, default `bySide`): the candles' timeframe is read from their
 *    spacing; for daily candles the weekly swings, for intraday ones the daily swings, of the whole
 *    history's closed buckets (weeks from Monday 00:00 UTC, UTC days; the bucket holding the as-of
 *    candle is left out) join step 1 as major swings, and a zone holding one is marked with that
 *    `timeframe`.
 * 5. Range extremes (`rangeExtremes`, default `bySide`) of the whole history before the as-of candle
 *    (all-time and 52-week high and low; one the as-of candle makes is where the price is, not a
 *    level yet): one within `mergeAtr` ATR of a zone joins it (the zone widened to hold it, never
 *    into a neighbour), else it makes a zone of `minWidthAtr` ATR reaching into the range, strength
 *    `1 - exp(-2/3)` (a fresh major swing's), touches 0. Open gaps of the window (a candle's low
 *    above the previous high, not traded since; mirrored down) at least `minGapAtr` ATR wide make a
 *    zone of the part no zone covers (or, narrower than `minWidthAtr`, mark the zone they touch),
 *    strength as a minor swing at the gap's candle. The zone holding the volume profile's point of
 *    control is marked `volume_node`. Gaps only with `bySide`. `sources` lists what made each zone.
 * 6. Kept, with `bySide` (default true; false: the `maxZones` (12) strongest, ties the later touch, then
 *    the nearer the mark): the zone holding the mark, and per side (zones entirely below the mark, and entirely
 *    above), from the mark outwards by the distance to the near edge, the `nearestPerSide` nearest
 *    within `reachAtr` ATR, then those within reach that hold a range extreme, then the strongest
 *    within reach, up to `maxZones` a side; a side with nothing within reach keeps its nearest zone.
 *    So while the mark is inside the range of the earlier candles both sides hold a level, and
 *    `at_all_time_high` / `at_all_time_low` say when it is beyond it. A zone's `kind` is support when
 *    its middle is at or below the mark (the last close), else resistance. Where the mark stands
 *    among them is {@link zoneContext}'s: `inside` is the zone holding the mark (neither support nor
 *    resistance), the nearest support the nearest zone entirely below, the nearest resistance the
 *    nearest entirely above, each with its signed distance from the mark to its near edge in % and
 *    ATRs.
 *
 * During the ATR warm-up (fewer than `atrPeriod + 1` candles) the zigzag finds nothing, the cluster
 * scale is the mean high-low range of the window, and `atr` / `distance_atr` are null.
 * Defaults: window 500, fractalSpan 2, atrPeriod 14, zigzagAtr 2, clusterAtr 0.5, maxWidthAtr 1,
 * minWidthAtr 0.2, halfLife 100, bySide true, maxZones 4 a side (12 in all without bySide), nearestPerSide 2,
 * reachAtr 10, mergeAtr 0.25, minGapAtr 0.25, higherTimeframe and rangeExtremes as bySide,
 * profileBins 24, valueArea 0.7. The range
 * extremes and the higher timeframe read the whole history (a linear pass each); the rest reads
 * the window.
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
  const { range, prior } = scanRange(view, end);
  const timeframe = timeframeOf(time, end);
  const higherName = o.higher ? higherTimeframeOf(timeframe) : null;

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
  // Swings of the higher timeframe (major weight); one at a candle that already has the swing
  // flags it instead of counting twice.
  const higherFlag: boolean[] = new Array(points.length).fill(false);
  let usedHigher = false;
  if (higherName !== null) {
    const hs: Swing[] = [];
    higherSwingsInto(view, end, higherName, o.span, hs);
    const at = new Map<number, number>();
    for (let k = 0; k < points.length; k++) at.set(points[k].index * 2 + (points[k].kind === 'high' ? 0 : 1), k);
    for (const s of hs) {
      const k = at.get(s.index * 2 + (s.kind === 'high' ? 0 : 1));
      if (k !== undefined && points[k].price === s.price) {
        higherFlag[k] = true;
        weights[k] = 2;
      } else {
        points.push(s);
        weights.push(2);
        higherFlag.push(true);
      }
      usedHigher = true;
    }
  }

  const profile = profileOf(view, start, end, o.profileBins, o.valueArea);
  const m = points.length;

  // 2. Sort by price (ties by index) and cluster.
  const order = Array.from({ length: m }, (_, k) => k);
  order.sort((a, b) => points[a].price - points[b].price || points[a].index - points[b].index);
  const p = new Float64Array(m);
  for (let k = 0; k < m; k++) p[k] = points[order[k]].price;
  const clusters: Cluster[] = [];
  if (m > 0) clusterInto(p, 0, m - 1, o.clusterAtr * unit, o.maxWidthAtr * unit, clusters);

  // 3. Bands (widened without crossing the midpoint to a neighbour) and strength.
  const profileRange = profile.bins[profile.bins.length - 1].high - profile.bins[0].low;
  const profileWeight = profile.basis === 'time' ? len : profile.total_volume;
  const density = profileRange > 0 ? profileWeight / profileRange : 0;
  const minWidth = o.minWidthAtr * unit;
  const decay = Math.LN2 / o.halfLife;
  const strengthOf = (score: number, lo: number, hi: number, volume: number): number => {
    let ratio = 1;
    if (hi > lo && density > 0) ratio = Math.min(4, Math.max(0.25, volume / (hi - lo) / density));
    return 1 - Math.exp(-(score * Math.sqrt(ratio)) / 3);
  };
  const higherTf = usedHigher ? higherName : null;
  const all: Zone[] = [];
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
    let fromHigher = false;
    for (let k = from; k <= to; k++) {
      const j = order[k];
      const idx = points[j].index;
      score += weights[j] * Math.exp(-decay * (end - idx));
      if (idx > last) last = idx;
      if (higherFlag[j]) fromHigher = true;
    }
    const volume = volumeInside(profile, lo, hi);
    const mid = (lo + hi) / 2;
    all.push({
      kind: mid <= mark ? 'support' : 'resistance',
      low: lo,
      high: hi,
      mid,
      strength: strengthOf(score, lo, hi, volume),
      touches: to - from + 1,
      last_touch_index: last,
      last_touch_time: time[last],
      volume,
      sources: ['swing'],
      timeframe: fromHigher ? higherTf : timeframe,
    });
  }

  // 4. Range extremes of the whole history and open gaps join the zone they touch, or make their own.
  const mergeTol = o.merge * unit;
  const extremeStrength = 1 - Math.exp(-2 / 3); // a fresh major swing's
  const extreme = (price: number, index: number, source: ZoneSource, side: 1 | -1): void => {
    if (!Number.isFinite(price)) return;
    let best = -1;
    let bestD = Number.POSITIVE_INFINITY;
    for (let k = 0; k < all.length; k++) {
      const z = all[k];
      const d = price < z.low ? z.low - price : price > z.high ? price - z.high : 0;
      // equally near two zones: the one on the range's side (below a high, above a low)
      if (d <= mergeTol && (d < bestD || (d === bestD && side < 0))) {
        best = k;
        bestD = d;
      }
    }
    if (best >= 0) {
      const z = all[best];
      addSource(z, source);
      if (bestD > 0) {
        const prev = best > 0 ? all[best - 1].high : Number.NEGATIVE_INFINITY;
        const next = best + 1 < all.length ? all[best + 1].low : Number.POSITIVE_INFINITY;
        z.low = Math.max(prev, Math.min(z.low, price));
        z.high = Math.min(next, Math.max(z.high, price));
        z.mid = (z.low + z.high) / 2;
        z.volume = volumeInside(profile, z.low, z.high);
      }
      return;
    }
    // a band reaching from the extreme into the range, cut at its neighbours
    let lo = side > 0 ? price - minWidth : price;
    let hi = side > 0 ? price : price + minWidth;
    let at = 0;
    while (at < all.length && all[at].high <= price) at++;
    if (at > 0) lo = Math.max(lo, all[at - 1].high);
    if (at < all.length) hi = Math.min(hi, all[at].low);
    const volume = volumeInside(profile, lo, hi);
    all.splice(at, 0, {
      kind: 'support',
      low: lo,
      high: hi,
      mid: (lo + hi) / 2,
      strength: extremeStrength,
      touches: 0,
      last_touch_index: index,
      last_touch_time: time[index],
      volume,
      sources: [source],
      timeframe,
    });
  };
  if (o.extremes) {
    extreme(prior.high, prior.highIndex, 'all_time_high', 1);
    extreme(prior.low, prior.lowIndex, 'all_time_low', -1);
    extreme(prior.high52, prior.high52Index, 'high_52w', 1);
    extreme(prior.low52, prior.low52Index, 'low_52w', -1);
  }

  const gaps: OpenGap[] = [];
  if (o.bySide) openGapsInto(view, start, end, Math.max(o.minGap * unit, Number.MIN_VALUE), gaps);
  for (const g of gaps) {
    // the part of the gap no zone covers, in the zone-free interval that holds most of it
    let lo = g.low;
    let hi = g.high;
    let touched = -1;
    let bestLo = lo;
    let bestHi = lo;
    let k = 0;
    while (k < all.length && all[k].high <= lo) k++;
    let cursor = lo;
    for (; k < all.length && all[k].low < hi; k++) {
      // the zone nearest the gap's origin edge (its low for a gap up, its high for a gap down)
      if (touched < 0 || g.direction === 'down') touched = k;
      const freeHi = Math.min(all[k].low, hi);
      const free = freeHi - cursor;
      if (free > bestHi - bestLo || (free === bestHi - bestLo && free > 0 && g.direction === 'down')) {
        bestLo = cursor;
        bestHi = freeHi;
      }
      cursor = Math.max(cursor, all[k].high);
    }
    if (hi - cursor > bestHi - bestLo || (hi - cursor === bestHi - bestLo && g.direction === 'down')) {
      bestLo = cursor;
      bestHi = hi;
    }
    lo = bestLo;
    hi = bestHi;
    if (hi - lo < Math.max(minWidth, Number.MIN_VALUE)) {
      if (touched >= 0) addSource(all[touched], 'gap');
      continue;
    }
    let at = 0;
    while (at < all.length && all[at].high <= lo) at++;
    const volume = volumeInside(profile, lo, hi);
    all.splice(at, 0, {
      kind: 'support',
      low: lo,
      high: hi,
      mid: (lo + hi) / 2,
      strength: strengthOf(Math.exp(-decay * (end - g.index)), lo, hi, volume),
      touches: 0,
      last_touch_index: g.index,
      last_touch_time: time[g.index],
      volume,
      sources: ['gap'],
      timeframe,
    });
  }
  const poc = profile.poc;
  for (const z of all) {
    z.kind = z.mid <= mark ? 'support' : 'resistance';
    if (z.low <= poc && poc <= z.high) addSource(z, 'volume_node');
  }

  // 5. Keep, on each side, the nearest zones within reach, the range extremes within reach, then
  // the strongest within reach; a side with nothing within reach keeps its nearest zone.
  const zones = o.bySide ? pickZones(all, mark, o.reach * unit, o) : strongest(all, mark, o.maxZones);
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
    range,
    at_all_time_high: end > 0 && mark >= prior.high,
    at_all_time_low: end > 0 && mark <= prior.low,
    timeframe,
    higher_timeframe: higherTf,
  };
}

/**
 * The `maxZones` strongest zones in price order (ties: the later touch, then the zone nearer the
 * mark, so a mirrored series keeps the mirrored zones, then the lower price).
 */
function strongest(all: Zone[], mark: number, maxZones: number): Zone[] {
  if (all.length <= maxZones) return all;
  const rank = Array.from({ length: all.length }, (_, k) => k);
  rank.sort(
    (a, b) =>
      all[b].strength - all[a].strength ||
      all[b].last_touch_index - all[a].last_touch_index ||
      Math.abs(all[a].mid - mark) - Math.abs(all[b].mid - mark) ||
      a - b,
  );
  return rank
    .slice(0, maxZones)
    .sort((a, b) => a - b)
    .map((k) => all[k]);
}

function addSource(z: Zone, source: ZoneSource): void {
  if (z.sources.includes(source)) return;
  z.sources.push(source);
  z.sources.sort((a, b) => ZONE_SOURCES.indexOf(a) - ZONE_SOURCES.indexOf(b));
}

const EXTREMES: readonly ZoneSource[] = ['all_time_high', 'all_time_low', 'high_52w', 'low_52w'];

/**
 * The zones kept. A zone holding the mark (`low <= mark <= high`) is always kept and counts on
 * neither side. Per side (supports entirely below the mark, resistances entirely above), ordered
 * from the mark outwards by the distance to the near edge: first the `nearest` within `reach`,
 * then those within reach that hold a range extreme, then the strongest within reach (ties: the
 * nearer), up to `maxZones`; with none within reach, the nearest. Returned in price order.
 */
function pickZones(all: Zone[], mark: number, reach: number, o: Params): Zone[] {
  const keep = new Uint8Array(all.length);
  const below: number[] = [];
  const above: number[] = [];
  for (let k = 0; k < all.length; k++) {
    if (all[k].high < mark) below.push(k);
    else if (all[k].low > mark) above.push(k);
    else keep[k] = 1;
  }
  below.reverse(); // outwards from the mark: supports from the highest
  for (const idx of [below, above]) {
    if (idx.length === 0) continue;
    const inReach = idx.filter((k) => Math.max(all[k].low - mark, mark - all[k].high) <= reach);
    if (inReach.length === 0) {
      keep[idx[0]] = 1;
      continue;
    }
    let kept = 0;
    for (const k of inReach) {
      if (kept >= Math.min(o.nearest, o.maxZones)) break;
      keep[k] = 1;
      kept++;
    }
    for (const k of inReach) {
      if (kept >= o.maxZones) break;
      if (keep[k] === 0 && all[k].sources.some((s) => EXTREMES.includes(s))) {
        keep[k] = 1;
        kept++;
      }
    }
    const rest = inReach.filter((k) => keep[k] === 0);
    // stable sort: equal strengths keep the outward order (the nearer first)
    rest.sort((a, b) => all[b].strength - all[a].strength);
    for (const k of rest) {
      if (kept >= o.maxZones) break;
      keep[k] = 1;
      kept++;
    }
  }
  const out: Zone[] = [];
  for (let k = 0; k < all.length; k++) if (keep[k] === 1) out.push(all[k]);
  return out;
}
