import { InputError } from '../errors.js';
import { checkInt, checkNumber } from '../indicators/internal/validate.js';
import { type ZoneContext, zoneContext } from '../levels/zone-context.js';
import { type SupportResistance, supportResistance } from '../levels/zones.js';
import { asOfIndex, type ContextInput, contextOf, type IndicatorContext, ok, orNull } from '../signal/context.js';
import { volumeConfirms, volumeStats } from '../signal/signal.js';
import type { Candles } from '../types.js';

/**
 * A price zone (a support/resistance band) as the screeners read it: any object with a `low`
 * and a `high` edge, such as the clustered zones of `levels`.
 */
export interface PriceZone {
  low: number;
  high: number;
}

/** A close beyond a channel or zone with volume confirmation. */
export interface BreakoutHit {
  direction: 'up' | 'down';
  /** `'zone'`: crossed a supplied zone this bar; `'channel'`: beyond the prior Donchian channel. */
  kind: 'zone' | 'channel';
  /** The broken edge (zone top or channel high going up; zone bottom or channel low going down). */
  level: number;
  close: number;
  /** `100 * (close - level) / level`, signed. */
  distance_pct: number;
  /** `(close - level) / ATR14`, signed; null during the ATR warm-up or when ATR is 0. */
  distance_atr: number | null;
  volume_z: number | null;
  volume_ratio: number | null;
}

/** Oscillators low and the price near a support. */
export interface OversoldHit {
  rsi_14: number;
  stoch_k: number | null;
  williams_r: number | null;
  /** How many of RSI <= 30, Stoch %K <= 20 and Williams %R <= -80 hold (at least `minOscillators`). */
  oscillators_low: number;
  /**
   * The support: the bottom of the zone holding the close, else the top of the nearest zone
   * entirely below it (see `zoneContext`), else the prior 20-bar low (`support_kind: 'channel'`).
   */
  support: number;
  support_kind: 'zone' | 'channel';
  /** `100 * (close - support) / support`, signed (negative just under a support). */
  distance_pct: number;
  /** `(close - support) / ATR14`, signed. */
  distance_atr: number;
}

/** A volume far above its recent average. */
export interface VolumeSurgeHit {
  volume: number;
  /** z-score of the volume against the previous `period` bars; null when they have no spread. */
  volume_z: number | null;
  /** Volume over the mean of the previous `period` bars. */
  volume_ratio: number;
  /** `100 * (close / previous close - 1)`, or null at bar 0 or a zero previous close. */
  change_pct: number | null;
}

/** Options of {@link detectBreakout}. */
export interface BreakoutOptions {
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
  /** Bars of the prior Donchian channel (bars `i-channel..i-1`). Default 20. */
  channel?: number;
  /**
   * Support/resistance zones whose crossing this bar counts as a breakout. Default: the zones of
   * `supportResistance` at the same bar; `[]` screens the channel only.
   */
  zones?: readonly PriceZone[];
}

/** Options of {@link detectOversold}. */
export interface OversoldOptions {
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
  /**
   * Supports to measure the distance to. Default: the zones of `supportResistance` at the same
   * bar; without a zone holding or below the close, the prior 20-bar low is the support.
   */
  zones?: readonly PriceZone[];
  /** Largest |close - support| in ATR units that counts as near. Default 1. */
  maxDistanceAtr?: number;
  /** Oscillators (of RSI, Stoch %K, Williams %R) that must be low. Default 2. RSI <= 30 is always required. */
  minOscillators?: number;
}

/** Options of {@link detectVolumeSurge}. */
export interface VolumeSurgeOptions {
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
  /** Smallest volume z-score that counts as a surge. Default 2. */
  minZ?: number;
}

const VOLUME_PERIOD = 20;
const CHANNEL = 20;

/**
 * The support/resistance of bar `i` with default options (ATR from the context), computed once
 * per context and bar. @internal
 */
export function levelsAt(ctx: IndicatorContext, i: number): SupportResistance {
  return ctx.memo(`levels:${i}`, () => supportResistance(ctx.candles, { asOf: i, atr: ctx.atr(14) }));
}

/** The zones a screen reads: the supplied ones (validated), else those of {@link levelsAt}. @internal */
export function zonesAt(
  ctx: IndicatorContext,
  i: number,
  zones: readonly PriceZone[] | undefined,
): readonly PriceZone[] {
  return zones === undefined ? levelsAt(ctx, i).zones : checkZones(zones);
}

function checkZones(zones: readonly PriceZone[]): readonly PriceZone[] {
  if (!Array.isArray(zones)) throw new InputError('invalid_option', 'zones must be an array of { low, high }', 'zones');
  for (let k = 0; k < zones.length; k++) {
    const z = zones[k];
    if (z == null || !ok(z.low) || !ok(z.high) || z.low > z.high) {
      throw new InputError('invalid_option', `zones[${k}] must have finite low <= high`, 'zones', k);
    }
  }
  return zones;
}

function atrDistance(ctx: IndicatorContext, i: number, d: number): number | null {
  const a = ctx.atr(14)[i];
  return ok(a) && a > 0 ? d / a : null;
}

/**
 * Breakout screen of one series at bar `asOf`: the close beyond a level with volume
 * confirmation.
 * - Zone: a supplied zone crossed this bar (`close > high >= previous close`, or
 *   `close < low <= previous close`); when several are crossed, the farthest edge wins.
 * - Channel (otherwise): the close beyond the prior `channel`-bar Donchian channel (the highest
 *   high and lowest low of bars `i-channel..i-1`).
 * Volume confirmation: the bar's volume z-score over the previous 20 bars is >= 1, or its
 * volume is >= 1.5x their mean. Returns null without a confirmed breakout (or in warm-up).
 * @throws InputError on bad candles or options.
 */
export function detectBreakout(input: ContextInput, options?: BreakoutOptions): BreakoutHit | null {
  const ctx = contextOf(input);
  const i = asOfIndex(ctx, options?.asOf);
  const channel = checkInt('channel', options?.channel ?? CHANNEL, 1, 10_000);
  if (options?.zones !== undefined) checkZones(options.zones);
  if (i < 1) return null;
  const vs = volumeStats(ctx, i, VOLUME_PERIOD);
  if (!volumeConfirms(vs)) return null;
  const zones = zonesAt(ctx, i, options?.zones);
  const { close } = ctx.candles;
  const c = close[i];
  const p = close[i - 1];
  // A bar cannot cross one zone upward and another downward (that needs c > p and c < p).
  let dir: 'up' | 'down' | null = null;
  let kind: 'zone' | 'channel' = 'zone';
  let level = Number.NaN;
  for (const z of zones) {
    if (c > z.high && p <= z.high && (dir === null || z.high > level)) {
      dir = 'up';
      level = z.high;
    } else if (c < z.low && p >= z.low && (dir === null || z.low < level)) {
      dir = 'down';
      level = z.low;
    }
  }
  if (dir === null) {
    kind = 'channel';
    const hi = ctx.highest(channel, i - 1);
    const lo = ctx.lowest(channel, i - 1);
    if (!ok(hi) || !ok(lo)) return null;
    if (c > hi) {
      dir = 'up';
      level = hi;
    } else if (c < lo) {
      dir = 'down';
      level = lo;
    } else return null;
  }
  return {
    direction: dir,
    kind,
    level,
    close: c,
    distance_pct: level !== 0 ? (100 * (c - level)) / Math.abs(level) : 0,
    distance_atr: atrDistance(ctx, i, c - level),
    volume_z: vs.z,
    volume_ratio: vs.ratio,
  };
}

/**
 * Where the close of bar `i` stands among the zones ({@link zoneContext}): the zone holding it,
 * the nearest zone entirely below and above, with distances in ATR(14). Without supplied zones,
 * exactly the `inside` / `nearest_support` / `nearest_resistance` of the analysis's levels
 * ({@link levelsAt}), so a screen never shows a support the analysis does not. @internal
 */
export function zoneContextAt(
  ctx: IndicatorContext,
  i: number,
  zones: readonly PriceZone[] | undefined,
): ZoneContext<PriceZone> {
  if (zones === undefined) {
    const sr = levelsAt(ctx, i);
    return { inside: sr.inside, below: sr.nearest_support, above: sr.nearest_resistance };
  }
  return zoneContext(checkZones(zones), ctx.candles.close[i], ctx.atr(14)[i]);
}

/**
 * Oversold screen of one series at bar `asOf`: oscillators low and the price near a support.
 * Conditions: RSI(14) <= 30; at least `minOscillators` (2) of RSI(14) <= 30, slow Stoch
 * %K(14, 3) <= 20 and Williams %R(14) <= -80; and `|close - support| <= maxDistanceAtr` (1) x
 * ATR(14), where the support is the bottom of the zone holding the close, else the top of the
 * nearest zone entirely below it (`zoneContextAt`), else the lowest low of the prior 20 bars.
 * Returns null when a condition fails or during warm-up.
 * @throws InputError on bad candles or options.
 */
export function detectOversold(input: ContextInput, options?: OversoldOptions): OversoldHit | null {
  const ctx = contextOf(input);
  const i = asOfIndex(ctx, options?.asOf);
  if (options?.zones !== undefined) checkZones(options.zones);
  const maxDist = checkNumber('maxDistanceAtr', options?.maxDistanceAtr ?? 1, 0, 1000);
  const minOsc = checkInt('minOscillators', options?.minOscillators ?? 2, 1, 3);
  const r = ctx.rsi(14)[i];
  if (!(r <= 30)) return null;
  const k = ctx.stoch().k[i];
  const w = ctx.willr(14)[i];
  const low = 1 + (k <= 20 ? 1 : 0) + (w <= -80 ? 1 : 0);
  if (low < minOsc) return null;
  const a = ctx.atr(14)[i];
  if (!ok(a)) return null;
  const s = oversoldSupport(ctx, i, zoneContextAt(ctx, i, options?.zones));
  if (s === null) return null;
  const c = ctx.candles.close[i];
  const d = c - s.price;
  if (Math.abs(d) > maxDist * a) return null;
  return {
    rsi_14: r,
    stoch_k: orNull(k),
    williams_r: orNull(w),
    oscillators_low: low,
    support: s.price,
    support_kind: s.kind,
    distance_pct: s.price !== 0 ? (100 * d) / Math.abs(s.price) : 0,
    distance_atr: a > 0 ? d / a : 0,
  };
}

/** The support of the oversold screen: the floor of the zone holding the close, the zone below, else the channel. */
function oversoldSupport(
  ctx: IndicatorContext,
  i: number,
  where: ZoneContext<PriceZone>,
): { price: number; kind: 'zone' | 'channel' } | null {
  if (where.inside !== null) return { price: where.inside.low, kind: 'zone' };
  if (where.below !== null) return { price: where.below.high, kind: 'zone' };
  if (i < 1) return null;
  const lo = ctx.lowest(CHANNEL, i - 1);
  return ok(lo) ? { price: lo, kind: 'channel' } : null;
}

/**
 * Volume-surge screen of one series at bar `asOf`: the volume z-score against the previous 20
 * bars (`(v - mean) / stddev`, population) is at least `minZ` (2). When the previous 20 volumes
 * are all equal (no spread, z undefined), a volume at least 1.5x their mean counts as a surge,
 * reported with `volume_z: null`. Returns null otherwise or during warm-up (20 prior bars).
 * @throws InputError on bad candles or options.
 */
export function detectVolumeSurge(input: ContextInput, options?: VolumeSurgeOptions): VolumeSurgeHit | null {
  const ctx = contextOf(input);
  const i = asOfIndex(ctx, options?.asOf);
  const minZ = checkNumber('minZ', options?.minZ ?? 2, 0, 1000);
  const vs = volumeStats(ctx, i, VOLUME_PERIOD);
  if (vs.ratio === null) return null;
  const surge = vs.z !== null ? vs.z >= minZ : vs.ratio >= 1.5;
  if (!surge) return null;
  const { close, volume } = ctx.candles;
  const prev = i > 0 ? close[i - 1] : 0;
  return {
    volume: volume[i],
    volume_z: vs.z,
    volume_ratio: vs.ratio,
    change_pct: prev !== 0 ? 100 * (close[i] / prev - 1) : null,
  };
}

/** One asset of a screener run. */
export interface ScreenerAsset {
  asset_id: string;
  /** Its candles, or a context already built over them (reused, so nothing is computed twice). */
  candles: Candles | IndicatorContext;
  /** Its support/resistance zones, when known (default: computed by `supportResistance`). */
  zones?: readonly PriceZone[];
}

/** Options of {@link runScreeners}. */
export interface ScreenerOptions {
  oversold?: Omit<OversoldOptions, 'asOf' | 'zones'>;
  volumeSurge?: Omit<VolumeSurgeOptions, 'asOf'>;
  breakout?: Omit<BreakoutOptions, 'asOf' | 'zones'>;
  /** Longest list per screen (the best first). Default: all. */
  limit?: number;
}

/** The result of a screener run: the wire object. */
export interface ScreenerResult {
  breakouts: (BreakoutHit & { asset_id: string })[];
  oversold: (OversoldHit & { asset_id: string })[];
  volume_surges: (VolumeSurgeHit & { asset_id: string })[];
  /** Assets skipped because their candles were invalid, with the InputError code and message. */
  errors: { asset_id: string; code: string; message: string }[];
}

/** Sorts by each key in turn, largest first, then by `asset_id`. */
function byKeys<T extends { asset_id: string }>(...keys: ((x: T) => number)[]): (a: T, b: T) => number {
  return (a, b) => {
    for (const key of keys) {
      const d = key(b) - key(a);
      if (d !== 0 && ok(d)) return d;
    }
    return a.asset_id < b.asset_id ? -1 : a.asset_id > b.asset_id ? 1 : 0;
  };
}

/**
 * Runs the three screens over many assets at their last candle: breakouts (sorted by
 * |distance_atr| then |distance_pct|, largest first), oversold (lowest RSI first) and volume
 * surges (largest z-score, then ratio, first); ties break by `asset_id`. An asset whose candles
 * are invalid is skipped and listed in `errors` instead of failing the run. One indicator
 * context per asset: each column (and the support/resistance zones, when not supplied) is
 * computed once for all three screens.
 * @throws InputError on bad options or a malformed asset list.
 */
export function runScreeners(assets: readonly ScreenerAsset[], options?: ScreenerOptions): ScreenerResult {
  if (!Array.isArray(assets)) throw new InputError('invalid_option', 'assets must be an array', 'assets');
  const limit = options?.limit === undefined ? Number.POSITIVE_INFINITY : checkInt('limit', options.limit, 1);
  const out: ScreenerResult = { breakouts: [], oversold: [], volume_surges: [], errors: [] };
  for (const a of assets) {
    if (a == null || typeof a.asset_id !== 'string') {
      throw new InputError('invalid_option', 'each asset needs an asset_id string', 'assets');
    }
    let ctx: IndicatorContext;
    try {
      ctx = contextOf(a.candles);
    } catch (e) {
      if (e instanceof InputError) {
        out.errors.push({ asset_id: a.asset_id, code: e.code, message: e.message });
        continue;
      }
      throw e;
    }
    const b = detectBreakout(ctx, { ...options?.breakout, zones: a.zones });
    if (b) out.breakouts.push({ asset_id: a.asset_id, ...b });
    const o = detectOversold(ctx, { ...options?.oversold, zones: a.zones });
    if (o) out.oversold.push({ asset_id: a.asset_id, ...o });
    const v = detectVolumeSurge(ctx, options?.volumeSurge);
    if (v) out.volume_surges.push({ asset_id: a.asset_id, ...v });
  }
  out.breakouts.sort(
    byKeys(
      (x) => Math.abs(x.distance_atr ?? 0),
      (x) => Math.abs(x.distance_pct),
    ),
  );
  out.oversold.sort(byKeys((x) => -x.rsi_14));
  out.volume_surges.sort(
    byKeys(
      (x) => x.volume_z ?? Number.POSITIVE_INFINITY,
      (x) => x.volume_ratio,
    ),
  );
  if (ok(limit)) {
    out.breakouts.length = Math.min(out.breakouts.length, limit);
    out.oversold.length = Math.min(out.oversold.length, limit);
    out.volume_surges.length = Math.min(out.volume_surges.length, limit);
  }
  return out;
}
