import { SIGNAL_SORTS, type SignalSortName } from '@marketlens/contract/words';
import { InputError } from '../errors.js';
import { FEAR_GREED_ZONES, type FearGreed, type FearGreedZone, fearGreed } from '../feargreed/fear-greed.js';
import { withholdFearGreed, withholdSignal } from '../history/history.js';
import type { PlanOptions } from '../plan/plan.js';
import { asOfIndex, type ContextInput, contextOf, ok, orNull } from '../signal/context.js';
import { type Signal, type SignalAction, signal, volumeStats } from '../signal/signal.js';
import { CANDLE_PATTERNS, type CandlePattern, patternsAtUnchecked } from './patterns.js';
import { detectBreakout, detectVolumeSurge, type PriceZone, zoneContextAt } from './screeners.js';

/** Trend of a row: from the signal's trend factor (above 0.25 up, below -0.25 down). */
export type RowTrend = 'up' | 'down' | 'sideways';

/** One asset of the signal list: what the ten controls filter and sort on. */
export interface SignalRow {
  asset_id: string;
  action: SignalAction;
  /** The signal's confidence: for a buy or sell, the probability that its plan reaches target 1 first. */
  confidence: number;
  /** A buy's or sell's expected R after costs (the signal's `edge.expected_r`); null for a hold. */
  expected_r: number | null;
  /** Its lower end at the interval's level (above 0 for every published call); null for a hold. */
  expected_r_low: number | null;
  /** The probability at which the call's plan breaks even after costs; null for a hold. */
  break_even: number | null;
  score: number;
  trend: RowTrend;
  rsi: number | null;
  /** Direction of a volume-confirmed breakout on the last bar (see `detectBreakout`), or null. */
  breakout: 'up' | 'down' | null;
  volume_z: number | null;
  /** A volume surge on the last bar (see `detectVolumeSurge`). */
  volume_surge: boolean;
  fear_greed: number | null;
  fear_greed_zone: FearGreedZone | null;
  /** The close lies inside a zone (which is then neither its support nor its resistance). */
  inside_zone: boolean;
  /**
   * Distance in ATR(14) from the close to the top of the nearest zone entirely below it
   * (negative), as the analysis's `levels.nearest_support.distance_atr`; null without one.
   */
  support_distance_atr: number | null;
  /**
   * Distance in ATR(14) from the close to the bottom of the nearest zone entirely above it
   * (positive), as the analysis's `levels.nearest_resistance.distance_atr`; null without one.
   */
  resistance_distance_atr: number | null;
  patterns: CandlePattern[];
  /** Change of the last bar in percent. */
  change_pct: number | null;
}

/** Options of {@link signalRow}. */
export interface SignalRowOptions {
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
  /** Support/resistance zones of the asset; default: computed by `supportResistance`. */
  zones?: readonly PriceZone[];
  /** A signal of the same bar, when already computed. */
  signal?: Signal;
  /** A Fear & Greed of the same bar, when already computed. */
  fearGreed?: FearGreed;
  /**
   * Options of the plan a call is judged by when the signal is computed here (its `costPct`: the
   * asset class's round trip, `roundTripCostPct`).
   */
  plan?: Omit<PlanOptions, 'direction'>;
}

/** Distance in ATR units within which a price is near a zone (the `near_zone` control). */
export const NEAR_ZONE_ATR = 1;

/**
 * The signal-list row of one asset: signal, trend, RSI(14), breakout, volume z-score and surge,
 * Fear & Greed, whether the close is inside a zone and the distances to the nearest support and
 * resistance (the analysis's, through `zoneContext`: no other definition, no channel fallback),
 * candlestick patterns and the last change, all at bar `asOf`, from one indicator context.
 * @throws InputError on bad candles or options.
 */
export function signalRow(assetId: string, input: ContextInput, options?: SignalRowOptions): SignalRow {
  if (typeof assetId !== 'string') throw new InputError('invalid_option', 'assetId must be a string', 'assetId');
  const ctx = contextOf(input);
  const i = asOfIndex(ctx, options?.asOf);
  const zones = options?.zones;
  const fg = options?.fearGreed ?? withholdFearGreed(fearGreed(ctx, { asOf: i }), i + 1);
  const sig = options?.signal ?? withholdSignal(signal(ctx, { asOf: i, fearGreed: fg, plan: options?.plan }), i + 1);
  const call = sig.action !== 'hold' ? sig.edge : null;
  const trendScore = sig.factors.find((f) => f.name === 'trend')?.score ?? null;
  const b = detectBreakout(ctx, { asOf: i, zones });
  const c = ctx.candles.close[i];
  const where = zoneContextAt(ctx, i, zones);
  const prev = i > 0 ? ctx.candles.close[i - 1] : 0;
  return {
    asset_id: assetId,
    action: sig.action,
    confidence: sig.confidence,
    expected_r: call?.expected_r ?? null,
    expected_r_low: call?.expected_r_low ?? null,
    break_even: call?.break_even ?? null,
    score: sig.score,
    trend: trendScore === null ? 'sideways' : trendScore > 0.25 ? 'up' : trendScore < -0.25 ? 'down' : 'sideways',
    rsi: orNull(ctx.rsi(14)[i]),
    breakout: b?.direction ?? null,
    volume_z: volumeStats(ctx, i).z,
    volume_surge: detectVolumeSurge(ctx, { asOf: i }) !== null,
    fear_greed: fg.score,
    fear_greed_zone: fg.zone,
    inside_zone: where.inside !== null,
    support_distance_atr: where.below?.distance_atr ?? null,
    resistance_distance_atr: where.above?.distance_atr ?? null,
    patterns: patternsAtUnchecked(ctx.candles, i),
    change_pct: prev !== 0 ? 100 * (c / prev - 1) : null,
  };
}

/** Sort orders of the signal list (the contract's words, written once in `@marketlens/contract/words`). */
export { SIGNAL_SORTS };

/** A sort order of the signal list. */
export type SignalSort = SignalSortName;

/** The ten signal-list controls (wire names, snake_case, as published in `/v2/config`). */
export interface SignalControls {
  /** Only rows with this action. */
  direction?: SignalAction;
  /**
   * Only calls (buy, sell) whose confidence, the probability that their plan reaches target 1
   * first, is at least this (0..1); holds never pass it (their number is not a confidence in holding).
   */
  min_confidence?: number;
  /** Only rows with this trend. */
  trend?: RowTrend;
  /** Only rows whose RSI(14) lies in `[min, max]` (0..100, inclusive). */
  rsi_band?: { min: number; max: number };
  /** Only rows with a breakout in this direction (`any`: either). */
  breakout?: 'up' | 'down' | 'any';
  /** `true`: only rows with a volume surge; `false`: only rows without. */
  volume_surge?: boolean;
  /** Only rows whose Fear & Greed zone is one of these. */
  fear_greed_zone?: readonly FearGreedZone[];
  /**
   * Only rows within {@link NEAR_ZONE_ATR} ATR of their nearest support, of their nearest
   * resistance, or (`any`) of either or inside a zone.
   */
  near_zone?: 'support' | 'resistance' | 'any';
  /** Only rows showing at least one of these candlestick patterns. */
  pattern?: readonly CandlePattern[];
  /** Sort order; default `confidence_desc`. Ties break by `asset_id`; nulls sort last. */
  sort?: SignalSort;
}

/** The name of a signal-list control. */
export type SignalControlName = keyof SignalControls;

/** How a control is described in `/v2/config`. */
export interface SignalControlSpec {
  name: SignalControlName;
  /**
   * `enum`: one of `values`; `enum_list`: a list of `values` (comma-separated in a query);
   * `number`: in `min..max`; `range`: `{ min, max }` within `min..max` (`"30,70"` in a query);
   * `boolean`.
   */
  type: 'enum' | 'enum_list' | 'number' | 'range' | 'boolean';
  values?: readonly string[];
  min?: number;
  max?: number;
  default?: string;
  description: string;
}

const ACTIONS: readonly SignalAction[] = ['buy', 'hold', 'sell'];
const TRENDS: readonly RowTrend[] = ['up', 'down', 'sideways'];
const ZONES: readonly FearGreedZone[] = /* @__PURE__ */ FEAR_GREED_ZONES.map((z) => z.zone);

/**
 * The ten signal-list controls, in the order they are published in `/v2/config`
 * (`signals.controls`), with their type, accepted values or range, and a description. The
 * server gates them as paid and validates queries with {@link parseSignalControls}.
 */
export const SIGNAL_CONTROLS: readonly SignalControlSpec[] = [
  { name: 'direction', type: 'enum', values: ACTIONS, description: 'Only assets whose signal action is this one.' },
  {
    name: 'min_confidence',
    type: 'number',
    min: 0,
    max: 1,
    description:
      "Only published calls (buy or sell) whose confidence, the calibrated probability that the call's plan reaches target 1 before its stop, is at least this (0..1). Holds never pass it: a hold's number is not a confidence in holding. Every published call already has an expected R after costs above 0 at the lower end of its interval (expected_r_low).",
  },
  {
    name: 'trend',
    type: 'enum',
    values: TRENDS,
    description: 'Only assets in this trend (trend factor above 0.25: up, below -0.25: down).',
  },
  {
    name: 'rsi_band',
    type: 'range',
    min: 0,
    max: 100,
    description: 'Only assets whose RSI(14) lies in [min, max], inclusive.',
  },
  {
    name: 'breakout',
    type: 'enum',
    values: ['up', 'down', 'any'],
    description:
      'Only assets whose last candle broke out (close beyond a zone or the 20-bar channel, volume-confirmed).',
  },
  {
    name: 'volume_surge',
    type: 'boolean',
    description: 'true: only assets whose last volume is a surge (z-score >= 2 over 20 bars); false: only without.',
  },
  {
    name: 'fear_greed_zone',
    type: 'enum_list',
    values: ZONES,
    description: 'Only assets whose Fear & Greed zone is one of these.',
  },
  {
    name: 'near_zone',
    type: 'enum',
    values: ['support', 'resistance', 'any'],
    description: `Only assets within ${NEAR_ZONE_ATR} ATR(14) of their nearest support (a zone below the price), of their nearest resistance (a zone above), or with any: of either or inside a zone.`,
  },
  {
    name: 'pattern',
    type: 'enum_list',
    values: CANDLE_PATTERNS,
    description: 'Only assets whose last candle shows one of these candlestick patterns.',
  },
  {
    name: 'sort',
    type: 'enum',
    values: SIGNAL_SORTS,
    default: 'confidence_desc',
    description:
      "Sort order; ties by asset id, missing values last. The confidence sorts list the calls (buy, sell) before the holds: a call's confidence is the probability its plan reaches target 1, a hold's that the declined plan would not, so the two do not rank on one scale.",
  },
];

function fail(name: string, message: string): never {
  throw new InputError('invalid_option', `${name}: ${message}`, name);
}

function specOf(name: string): SignalControlSpec {
  const spec = SIGNAL_CONTROLS.find((c) => c.name === name);
  if (!spec) fail(name, `unknown control (known: ${SIGNAL_CONTROLS.map((c) => c.name).join(', ')})`);
  return spec;
}

function checkEnum(spec: SignalControlSpec, v: unknown): string {
  const values = spec.values ?? [];
  if (typeof v !== 'string' || !values.includes(v)) fail(spec.name, `must be one of ${values.join(', ')}`);
  return v;
}

function checkRange(spec: SignalControlSpec, x: unknown, what: string): number {
  const lo = spec.min ?? Number.NEGATIVE_INFINITY;
  const hi = spec.max ?? Number.POSITIVE_INFINITY;
  if (typeof x !== 'number' || !ok(x) || x < lo || x > hi) fail(spec.name, `${what} must be a number in ${lo}..${hi}`);
  return x;
}

/**
 * Validates typed controls (as {@link filterSignals} takes them) and returns a normalised copy.
 * @throws InputError (`invalid_option`, `field` = the control) on an unknown control or a bad value.
 */
export function checkSignalControls(controls: SignalControls): SignalControls {
  if (controls == null || typeof controls !== 'object' || Array.isArray(controls)) {
    throw new InputError('invalid_option', 'controls must be an object', 'controls');
  }
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(controls)) {
    if (v === undefined) continue;
    const spec = specOf(name);
    switch (spec.type) {
      case 'enum':
        out[name] = checkEnum(spec, v);
        break;
      case 'enum_list': {
        if (!Array.isArray(v) || v.length === 0) fail(name, 'must be a non-empty list');
        out[name] = [...new Set((v as unknown[]).map((x) => checkEnum(spec, x)))];
        break;
      }
      case 'number':
        out[name] = checkRange(spec, v, 'value');
        break;
      case 'range': {
        const r = v as { min?: unknown; max?: unknown };
        if (r === null || typeof r !== 'object') fail(name, 'must be { min, max }');
        const min = checkRange(spec, r.min, 'min');
        const max = checkRange(spec, r.max, 'max');
        if (min > max) fail(name, 'min must not exceed max');
        out[name] = { min, max };
        break;
      }
      case 'boolean':
        if (typeof v !== 'boolean') fail(name, 'must be true or false');
        out[name] = v;
        break;
    }
  }
  return out as SignalControls;
}

/**
 * Parses query-string controls (`?direction=buy&rsi_band=30,70&pattern=hammer,doji`) into typed
 * controls: numbers as decimals, ranges as `min,max`, lists comma-separated (or repeated keys),
 * booleans as `true`/`false`. Keys that are not controls are ignored (they belong to the route,
 * such as `timeframe` or `limit`).
 * @throws InputError on a malformed value of a control.
 */
export function parseSignalControls(
  query: Readonly<Record<string, string | readonly string[] | undefined>>,
): SignalControls {
  const out: Record<string, unknown> = {};
  for (const spec of SIGNAL_CONTROLS) {
    const raw = query[spec.name];
    if (raw === undefined) continue;
    const parts = (typeof raw === 'string' ? [raw] : [...raw]).flatMap((s) => s.split(',')).map((s) => s.trim());
    const num = (s: string): number => (/^-?\d+(\.\d+)?$/.test(s) ? Number(s) : Number.NaN);
    switch (spec.type) {
      case 'enum':
        if (parts.length !== 1) fail(spec.name, 'takes one value');
        out[spec.name] = parts[0];
        break;
      case 'enum_list':
        out[spec.name] = parts.filter((s) => s !== '');
        break;
      case 'number':
        if (parts.length !== 1) fail(spec.name, 'takes one number');
        out[spec.name] = num(parts[0]);
        break;
      case 'range':
        if (parts.length !== 2) fail(spec.name, 'takes min,max');
        out[spec.name] = { min: num(parts[0]), max: num(parts[1]) };
        break;
      case 'boolean':
        if (parts.length !== 1 || (parts[0] !== 'true' && parts[0] !== 'false'))
          fail(spec.name, 'must be true or false');
        out[spec.name] = parts[0] === 'true';
        break;
    }
  }
  return checkSignalControls(out as SignalControls);
}

function keep(row: SignalRow, c: SignalControls): boolean {
  if (c.direction !== undefined && row.action !== c.direction) return false;
  if (c.min_confidence !== undefined && (row.action === 'hold' || !(row.confidence >= c.min_confidence))) return false;
  if (c.trend !== undefined && row.trend !== c.trend) return false;
  if (c.rsi_band !== undefined && (row.rsi === null || row.rsi < c.rsi_band.min || row.rsi > c.rsi_band.max)) {
    return false;
  }
  if (c.breakout !== undefined && (row.breakout === null || (c.breakout !== 'any' && row.breakout !== c.breakout))) {
    return false;
  }
  if (c.volume_surge !== undefined && row.volume_surge !== c.volume_surge) return false;
  if (
    c.fear_greed_zone !== undefined &&
    (row.fear_greed_zone === null || !c.fear_greed_zone.includes(row.fear_greed_zone))
  ) {
    return false;
  }
  if (c.near_zone !== undefined) {
    const s = row.support_distance_atr !== null && Math.abs(row.support_distance_atr) <= NEAR_ZONE_ATR;
    const r = row.resistance_distance_atr !== null && Math.abs(row.resistance_distance_atr) <= NEAR_ZONE_ATR;
    if (c.near_zone === 'support' ? !s : c.near_zone === 'resistance' ? !r : !(s || r || row.inside_zone)) return false;
  }
  if (c.pattern !== undefined && !c.pattern.some((p) => row.patterns.includes(p))) return false;
  return true;
}

function sortKey(sort: SignalSort): { key: (r: SignalRow) => number | null; desc: boolean } {
  switch (sort) {
    case 'confidence_desc':
    case 'confidence_asc':
      return { key: (r) => r.confidence, desc: sort === 'confidence_desc' };
    case 'score_desc':
    case 'score_asc':
      return { key: (r) => r.score, desc: sort === 'score_desc' };
    case 'rsi_asc':
    case 'rsi_desc':
      return { key: (r) => r.rsi, desc: sort === 'rsi_desc' };
    case 'volume_z_desc':
      return { key: (r) => r.volume_z, desc: true };
    case 'fear_greed_asc':
    case 'fear_greed_desc':
      return { key: (r) => r.fear_greed, desc: sort === 'fear_greed_desc' };
    case 'change_desc':
    case 'change_asc':
      return { key: (r) => r.change_pct, desc: sort === 'change_desc' };
  }
}

/**
 * Filters and sorts signal rows by the ten controls of {@link SIGNAL_CONTROLS}: every control
 * given must hold (logical AND; list controls match any of their values); absent controls do
 * not filter. Sorted by `sort` (default `confidence_desc`), nulls last, ties by `asset_id`; the
 * confidence sorts put every call (buy, sell) before every hold, since a call's confidence (the
 * probability its plan reaches target 1) and a hold's (that the declined plan would not) are not
 * one scale.
 * Returns a new array; the rows are not modified.
 * @throws InputError on an unknown control or a bad value (see {@link checkSignalControls}).
 */
export function filterSignals(rows: readonly SignalRow[], controls: SignalControls = {}): SignalRow[] {
  if (!Array.isArray(rows)) throw new InputError('invalid_option', 'rows must be an array', 'rows');
  const c = checkSignalControls(controls);
  const sort = c.sort ?? 'confidence_desc';
  const { key, desc } = sortKey(sort);
  const byConfidence = sort === 'confidence_desc' || sort === 'confidence_asc';
  const out = rows.filter((r) => keep(r, c));
  out.sort((a, b) => {
    if (byConfidence && (a.action === 'hold') !== (b.action === 'hold')) return a.action === 'hold' ? 1 : -1;
    const x = key(a);
    const y = key(b);
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
    } else if (x !== y) return desc ? y - x : x - y;
    return a.asset_id < b.asset_id ? -1 : a.asset_id > b.asset_id ? 1 : 0;
  });
  return out;
}
