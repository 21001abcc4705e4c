import { type FearGreedZoneName, FEAR_GREED_ZONES as ZONE_NAMES } from '@marketlens/contract/words';
import { InputError } from '../errors.js';
import { checkNumber } from '../indicators/internal/validate.js';
import {
  asOfIndex,
  type ContextInput,
  clamp,
  contextOf,
  type IndicatorContext,
  ok,
  orNull,
} from '../signal/context.js';

/** Fear & Greed zones, from most fearful to most greedy (the contract's `FEAR_GREED_ZONES`). */
export type FearGreedZone = FearGreedZoneName;

/** Names of the Fear & Greed components. */
export type FearGreedComponentName =
  | 'volatility'
  | 'momentum'
  | 'volume'
  | 'overextension'
  | 'funding'
  | 'breadth'
  | 'dominance';

/** The top of each zone (inclusive); each zone starts one above the previous one's top, the first at 0. */
const ZONE_MAX: Record<FearGreedZone, number> = {
  extreme_fear: 24,
  fear: 44,
  neutral: 55,
  greed: 75,
  extreme_greed: 100,
};

/**
 * The zone cut-offs over the integer score: `extreme_fear` 0-24, `fear` 25-44, `neutral`
 * 45-55, `greed` 56-75, `extreme_greed` 76-100 (inclusive bounds).
 */
export const FEAR_GREED_ZONES: readonly { zone: FearGreedZone; min: number; max: number }[] = ZONE_NAMES.map(
  (zone, i) => ({ zone, min: i === 0 ? 0 : ZONE_MAX[ZONE_NAMES[i - 1]] + 1, max: ZONE_MAX[zone] }),
);

/**
 * Base weights of the components; the weights of the components present are renormalised
 * to sum to 1 (funding, breadth and dominance are present only when supplied).
 */
export const FEAR_GREED_WEIGHTS: Readonly<Record<FearGreedComponentName, number>> = {
  volatility: 0.25,
  momentum: 0.25,
  volume: 0.15,
  overextension: 0.15,
  funding: 0.1,
  breadth: 0.05,
  dominance: 0.05,
};

/** One component of the score: its sub-score 0..100 (50 neutral), weights and inputs. */
export interface FearGreedComponent {
  name: FearGreedComponentName;
  /** Sub-score in 0..100, rounded to 0.1: 0 is extreme fear, 50 neutral, 100 extreme greed. */
  value: number;
  /** Renormalised weight of this component in the score (the weights present sum to 1). */
  weight: number;
  /** Base weight before renormalisation ({@link FEAR_GREED_WEIGHTS}). */
  base_weight: number;
  /** The numbers the sub-score was computed from. */
  inputs: Record<string, number | null>;
}

/** A component that could not be computed, and why. */
export interface FearGreedUnavailable {
  name: FearGreedComponentName;
  reason: 'not_supplied' | 'insufficient_data' | 'no_volume';
}

/** Per-asset Fear & Greed: the wire object. */
export interface FearGreed {
  /** Integer score 0..100, or null when no component could be computed. */
  score: number | null;
  /** Zone of the integer score ({@link FEAR_GREED_ZONES}), or null with the score. */
  zone: FearGreedZone | null;
  /** The components present, in a fixed order, with their renormalised weights. */
  components: FearGreedComponent[];
  /** Components absent from the score and why. */
  unavailable: FearGreedUnavailable[];
  /** Present when `score` is null. */
  reason?: 'insufficient_data';
}

/** Options of {@link fearGreed}; the optional market inputs are absent when undefined or null. */
export interface FearGreedOptions {
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
  /**
   * Perpetual funding rate of the asset per funding interval, as a fraction (0.0001 is
   * 0.01%), for assets with a perpetual. Must be in -1..1.
   */
  funding?: number | null;
  /** Market breadth: the fraction 0..1 of the universe advancing (or above its 50-bar average). */
  breadth?: number | null;
  /**
   * Change of the market-leader's dominance over the period, in percentage points (for
   * coins: Bitcoin dominance); a rising dominance is a flight to safety. Must be in -100..100.
   */
  dominanceChange?: number | null;
}

/** The zone of an integer-rounded score 0..100 (see {@link FEAR_GREED_ZONES}). */
export function fearGreedZone(score: number): FearGreedZone {
  if (!ok(score) || score < 0 || score > 100) {
    throw new InputError('invalid_option', `score must be a number in 0..100, got ${String(score)}`, 'score');
  }
  const s = Math.round(score);
  if (s <= 24) return 'extreme_fear';
  if (s <= 44) return 'fear';
  if (s <= 55) return 'neutral';
  if (s <= 75) return 'greed';
  return 'extreme_greed';
}

const VOL_PERIOD = 14;

/**
 * Candles Fear & Greed needs, counting the as-of candle: the volatility of 14 log returns (15
 * candles) averaged over 90 bars, so every component read from candles is defined from the
 * 104th candle. Below it an analysis publishes no score (`insufficient_data`); the function
 * itself scores the components present.
 */
export const FEAR_GREED_HISTORY = 104;
const VOLUME_SHORT = 10;
const VOLUME_LONG = 30;
/** Funding rate read as neutral: the usual 0.01% per 8 h baseline of perpetual swaps. */
const FUNDING_NEUTRAL = 0.0001;
/** Funding excess over the neutral rate that reads as extreme (0 or 100). */
const FUNDING_SCALE = 0.0005;

function mean(col: Float64Array, to: number, count: number): number {
  if (to - count + 1 < 0) return Number.NaN;
  let s = 0;
  for (let j = to - count + 1; j <= to; j++) s += col[j];
  return s / count;
}

function round1(x: number): number {
  // + 0 turns -0 into 0, which JSON cannot tell apart
  return Math.round(x * 10) / 10 + 0;
}

interface Raw {
  name: FearGreedComponentName;
  value: number;
  inputs: Record<string, number | null>;
}

function volatilityComponent(ctx: IndicatorContext, i: number): Raw | FearGreedUnavailable {
  const vol = ctx.volatility(VOL_PERIOD);
  const v = vol[i];
  const a30 = mean(vol, i, 30);
  if (!ok(v) || !ok(a30)) return { name: 'volatility', reason: 'insufficient_data' };
  const a90 = mean(vol, i, 90);
  const base = ok(a90) ? (a30 + a90) / 2 : a30;
  const ratio = base > 0 ? v / base : 1;
  // log2(0) is -Infinity, which the clamp maps to -1 (no volatility at all: 100).
  const value = 50 - 50 * clamp(Math.log2(ratio), -1, 1);
  return {
    name: 'volatility',
    value,
    inputs: { volatility: v, average_30: a30, average_90: orNull(a90), ratio },
  };
}

function momentumComponent(ctx: IndicatorContext, i: number): Raw | FearGreedUnavailable {
  const r = ctx.rsi(14)[i];
  if (!ok(r)) return { name: 'momentum', reason: 'insufficient_data' };
  return { name: 'momentum', value: r, inputs: { rsi_14: r } };
}

function volumeComponent(ctx: IndicatorContext, i: number): Raw | FearGreedUnavailable {
  if (i < VOLUME_LONG - 1 || i < VOLUME_SHORT) return { name: 'volume', reason: 'insufficient_data' };
  const { close, volume } = ctx.candles;
  const long = ctx.volumeWindow(VOLUME_LONG, i).mean;
  const short = ctx.volumeWindow(VOLUME_SHORT, i).mean;
  if (!(long > 0)) return { name: 'volume', reason: 'no_volume' };
  let up = 0;
  let down = 0;
  for (let j = i - VOLUME_SHORT + 1; j <= i; j++) {
    const d = close[j] - close[j - 1];
    if (d > 0) up += volume[j];
    else if (d < 0) down += volume[j];
  }
  const share = up + down > 0 ? (100 * up) / (up + down) : 50;
  const rv = short / long;
  const value = clamp(50 + (share - 50) * Math.min(rv, 2), 0, 100);
  return { name: 'volume', value, inputs: { up_volume_share: share, relative_volume: rv } };
}

function overextensionComponent(ctx: IndicatorContext, i: number): Raw | FearGreedUnavailable {
  const m = ctx.sma(20)[i];
  const sd = ctx.stdDev(20)[i];
  if (!ok(m) || !ok(sd)) return { name: 'overextension', reason: 'insufficient_data' };
  const z = sd > 0 ? (ctx.candles.close[i] - m) / sd : 0;
  return { name: 'overextension', value: clamp(50 + 25 * z, 0, 100), inputs: { sma_20: m, z_score: z + 0 } };
}

/**
 * Per-asset Fear & Greed index: a weighted mean of component sub-scores (each 0..100, 50
 * neutral), rounded to an integer 0..100, in the spirit of alternative.me's Crypto Fear & Greed
 * Index (volatility, momentum and volume against their averages; dominance) made computable
 * from one asset's candles plus optional market inputs.
 *
 * Components (sub-score formula; base weight):
 * - `volatility` (0.25): `v` = standard deviation of the last 14 log returns; `base` = mean of
 *   `v` over the last 30 bars and over the last 90, averaged (the 30-bar mean alone before 90
 *   bars); `50 - 50 * clamp(log2(v / base), -1, 1)`: twice the usual volatility is 0 (fear),
 *   half of it 100.
 * - `momentum` (0.25): RSI(14), Wilder.
 * - `volume` (0.15): `share` = 100 * volume of up-closes / volume of up- and down-closes over
 *   the last 10 bars; `rv` = SMA(volume, 10) / SMA(volume, 30);
 *   `clamp(50 + (share - 50) * min(rv, 2), 0, 100)`: heavy buying is greed, heavy selling fear.
 * - `overextension` (0.15): `z = (close - SMA(20)) / stddev(20)` (population, 0 when flat);
 *   `clamp(50 + 25 * z, 0, 100)`: the Bollinger(20, 2) bands read 0 and 100.
 * - `funding` (0.10, when supplied, perpetuals): `clamp(50 + 50 * (f - 0.0001) / 0.0005, 0, 100)`
 *   for a rate `f` per funding interval; the usual 0.01% reads neutral.
 * - `breadth` (0.05, when supplied): `100 * breadth`.
 * - `dominance` (0.05, when supplied): `clamp(50 - 25 * change, 0, 100)` for a change in
 *   percentage points: a rising leader dominance is a flight to safety (fear).
 * The weights of the components present are renormalised to sum to 1. Zones over the integer
 * score: `extreme_fear` 0-24, `fear` 25-44, `neutral` 45-55, `greed` 56-75, `extreme_greed`
 * 76-100 ({@link FEAR_GREED_ZONES}). Needs 15 candles for momentum and 44 for volatility; with
 * no component computable, `score` and `zone` are null with `reason: 'insufficient_data'`. Every
 * component read from candles is defined from {@link FEAR_GREED_HISTORY} (104) candles, the
 * history below which an analysis withholds the score (`withholdFearGreed`).
 * Reads candles `0..asOf` only.
 * @throws InputError on bad candles, index or market inputs.
 */
export function fearGreed(input: ContextInput, options?: FearGreedOptions): FearGreed {
  const ctx = contextOf(input);
  const i = asOfIndex(ctx, options?.asOf);
  const funding = options?.funding ?? null;
  const breadth = options?.breadth ?? null;
  const dominance = options?.dominanceChange ?? null;
  if (funding !== null) checkNumber('funding', funding, -1, 1);
  if (breadth !== null) checkNumber('breadth', breadth, 0, 1);
  if (dominance !== null) checkNumber('dominanceChange', dominance, -100, 100);

  const parts: (Raw | FearGreedUnavailable)[] = [
    volatilityComponent(ctx, i),
    momentumComponent(ctx, i),
    volumeComponent(ctx, i),
    overextensionComponent(ctx, i),
    funding === null
      ? { name: 'funding', reason: 'not_supplied' }
      : {
          name: 'funding',
          value: clamp(50 + (50 * (funding - FUNDING_NEUTRAL)) / FUNDING_SCALE, 0, 100),
          inputs: { funding_rate: funding + 0 },
        },
    breadth === null
      ? { name: 'breadth', reason: 'not_supplied' }
      : { name: 'breadth', value: 100 * breadth, inputs: { breadth } },
    dominance === null
      ? { name: 'dominance', reason: 'not_supplied' }
      : { name: 'dominance', value: clamp(50 - 25 * dominance, 0, 100), inputs: { dominance_change: dominance + 0 } },
  ];

  const present: Raw[] = [];
  const unavailable: FearGreedUnavailable[] = [];
  let wsum = 0;
  for (const p of parts) {
    if ('reason' in p) unavailable.push(p);
    else {
      present.push(p);
      wsum += FEAR_GREED_WEIGHTS[p.name];
    }
  }
  if (present.length === 0) {
    return { score: null, zone: null, components: [], unavailable, reason: 'insufficient_data' };
  }
  let acc = 0;
  const components: FearGreedComponent[] = [];
  for (const p of present) {
    const base = FEAR_GREED_WEIGHTS[p.name];
    const w = base / wsum;
    acc += w * p.value;
    components.push({ name: p.name, value: round1(p.value), weight: w, base_weight: base, inputs: p.inputs });
  }
  const score = Math.round(clamp(acc, 0, 100));
  return { score, zone: fearGreedZone(score), components, unavailable };
}
