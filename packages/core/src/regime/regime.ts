import { REGIME_PHASES, type RegimePhaseName } from '@marketlens/contract/words';
import { checkInt, checkNumber } from '../indicators/internal/validate.js';
import { asOfIndex, type ContextInput, contextOf, type IndicatorContext, ok, orNull } from '../signal/context.js';

/**
 * Market phases as a chartist names them: the advance (`markup`), the decline (`markdown`), a
 * range while the long average still falls (`accumulation`, after a decline), a range while it
 * still rises (`distribution`, after an advance), and a range with a flat long average (`range`).
 */
export type RegimePhase = RegimePhaseName;

/**
 * The phases, indexed by the codes of {@link RegimeSeries.phase}; the contract's words, written once
 * in `@marketlens/contract/words`.
 */
export { REGIME_PHASES };

/**
 * Candles the regime needs before it names a phase: SMA(200) and its value 20 bars earlier
 * (the slope of the long average), so the first phase is read on the 220th candle.
 */
export const REGIME_HISTORY = 220;

/** Swing structure: higher highs and higher lows (`up`), lower highs and lower lows (`down`), else `mixed`. */
export type SwingStructure = 'up' | 'down' | 'mixed';

/** A change of phase, confirmed at bar `time`. */
export interface RegimeTransition {
  from: RegimePhase;
  to: RegimePhase;
  /** Open time (ms) of the bar that confirmed the new phase. */
  time: number;
  /** Bars between that bar and the as-of bar (0: the as-of bar confirmed it). */
  bars_ago: number;
}

/** The regime as of one bar: the wire object. */
export interface Regime {
  /** Current phase, or null below {@link REGIME_HISTORY} candles (`reason` says so). */
  phase: RegimePhase | null;
  /** Phase before the last transition, or null when none happened yet. */
  previous_phase: RegimePhase | null;
  /** Open time (ms) of the first bar of the current phase (the bar that confirmed it, or the first classified bar). */
  since: number | null;
  /** Bars in the current phase, counting the as-of bar and the first bar of the phase: at least 1. */
  bars_in_phase: number | null;
  /** Trend strength 0..1: the efficiency ratio of the last 20 closes (see {@link regime}). */
  strength: number | null;
  /** The last transition at or before the as-of bar, or null when none happened yet. */
  transition: RegimeTransition | null;
  /** True when the as-of bar confirmed a transition: what a regime-change push reacts to. */
  changed: boolean;
  /** The swing structure of the as-of bar (null before two swing highs and two swing lows). */
  structure: SwingStructure | null;
  /** The numbers the classification of the as-of bar read. */
  inputs: {
    ema_50: number | null;
    atr_14: number | null;
    efficiency_ratio: number | null;
    /** Net move of the last 20 closes in ATR(14): the phase never points against it by more than 2. */
    move_atr: number | null;
    channel_position: number | null;
    sma_200: number | null;
    /** `(EMA50 - EMA50 10 bars earlier) / ATR14`. */
    ema_50_slope_atr: number | null;
    /** `(SMA200 - SMA200 20 bars earlier) / ATR14`. */
    sma_200_slope_atr: number | null;
    /** The last confirmed swing high and the one before it (null until they exist). */
    swing_high: number | null;
    previous_swing_high: number | null;
    /** The last confirmed swing low and the one before it (null until they exist). */
    swing_low: number | null;
    previous_swing_low: number | null;
  };
  reason?: 'insufficient_data';
}

/** Options of {@link regime} and {@link regimeSeries}. */
export interface RegimeOptions {
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
  /** Consecutive bars a new phase must be indicated before it is adopted. Default 5 (1..50). */
  confirmBars?: number;
  /** Efficiency ratio of the last 20 closes (0..1) at or above which a move is a thrust. Default 0.3. */
  efficiency?: number;
  /**
   * Net move of the last 20 closes, in ATR(14) units, at or above which a move is a thrust; also
   * the bound a phase never contradicts (no markdown over a net rise beyond it). Default 2.
   */
  minMoveAtr?: number;
}

/** The phase of every bar (codes into {@link REGIME_PHASES}; -1 before the first classified bar). */
export interface RegimeSeries {
  phase: Int8Array;
  /** Per bar: the raw indication before confirmation (same codes). */
  indicated: Int8Array;
}

const WINDOW = 20;
const CHANNEL = 50;
/** Bars each side of a swing high or low (a fractal): a swing is confirmed `SPAN` bars after it. */
const SPAN = 5;
const SLOPE_50 = 10;
const SLOPE_200 = 20;
/** |SMA200 slope| in ATR over 20 bars below which the long average is flat. */
const FLAT_200 = 0.5;
const ACC = 0;
const MARKUP = 1;
const DIST = 2;
const MARKDOWN = 3;
const RANGE = 4;

interface Params {
  confirmBars: number;
  efficiency: number;
  minMove: number;
}

function paramsOf(options?: RegimeOptions): Params {
  return {
    confirmBars: checkInt('confirmBars', options?.confirmBars ?? 5, 1, 50),
    efficiency: checkNumber('efficiency', options?.efficiency ?? 0.3, 0, 1),
    minMove: checkNumber('minMoveAtr', options?.minMoveAtr ?? 2, 0, 1000),
  };
}

/**
 * Kaufman's efficiency ratio of the last `WINDOW` closes, `|net| / path`, and the net move in
 * ATR units; NaN during warm-up. @internal
 */
function moveOf(close: ArrayLike<number>, atr: Float64Array, i: number): { er: number; move: number } {
  if (i < WINDOW || !ok(atr[i])) return { er: Number.NaN, move: Number.NaN };
  const net = close[i] - close[i - WINDOW];
  let path = 0;
  for (let j = i - WINDOW + 1; j <= i; j++) path += Math.abs(close[j] - close[j - 1]);
  const a = atr[i];
  return { er: path > 0 ? Math.abs(net) / path : 0, move: a > 0 ? net / a : 0 };
}

/**
 * The last two confirmed swing highs and lows known at each bar: a swing high is a high above
 * the `SPAN` highs before it and at least the `SPAN` after it, known `SPAN` bars later (the
 * mirror for lows). NaN until two exist.
 */
interface Swings {
  high: Float64Array;
  prevHigh: Float64Array;
  low: Float64Array;
  prevLow: Float64Array;
}

function swingsOf(ctx: IndicatorContext): Swings {
  return ctx.memo('regime:swings', () => {
    const n = ctx.length;
    const { high: h, low: l } = ctx.candles;
    const out: Swings = {
      high: new Float64Array(n).fill(Number.NaN),
      prevHigh: new Float64Array(n).fill(Number.NaN),
      low: new Float64Array(n).fill(Number.NaN),
      prevLow: new Float64Array(n).fill(Number.NaN),
    };
    let hi = Number.NaN;
    let hi0 = Number.NaN;
    let lo = Number.NaN;
    let lo0 = Number.NaN;
    for (let i = 0; i < n; i++) {
      // The candidate at j = i - SPAN is confirmed by bar i.
      const j = i - SPAN;
      if (j >= SPAN) {
        let isHigh = true;
        let isLow = true;
        for (let k = 1; k <= SPAN; k++) {
          if (!(h[j] > h[j - k] && h[j] >= h[j + k])) isHigh = false;
          if (!(l[j] < l[j - k] && l[j] <= l[j + k])) isLow = false;
        }
        if (isHigh) {
          hi0 = hi;
          hi = h[j];
        }
        if (isLow) {
          lo0 = lo;
          lo = l[j];
        }
      }
      out.high[i] = hi;
      out.prevHigh[i] = hi0;
      out.low[i] = lo;
      out.prevLow[i] = lo0;
    }
    return out;
  });
}

/** What bar `i` reads: structure, slopes of the averages, the thrust. */
interface Reading {
  close: number;
  e50: number;
  slope50: number;
  slope200: number;
  er: number;
  move: number;
  structure: SwingStructure | null;
  /** A lower low in the making: the close under the last swing low, or the last low under the one before. */
  brokenUp: boolean;
  /** A higher high in the making: the mirror. */
  brokenDown: boolean;
}

function structureOf(sw: Swings, c: number, i: number): SwingStructure | null {
  const hi = sw.high[i];
  const hi0 = sw.prevHigh[i];
  const lo = sw.low[i];
  const lo0 = sw.prevLow[i];
  if (!ok(hi0) || !ok(lo0)) return null;
  if (hi > hi0 && lo > lo0 && c > lo) return 'up';
  if (hi < hi0 && lo < lo0 && c < hi) return 'down';
  return 'mixed';
}

/** The reading of bar `i`, or null before {@link REGIME_HISTORY} candles (or without ATR). */
function readingAt(ctx: IndicatorContext, i: number): Reading | null {
  if (i < REGIME_HISTORY - 1) return null;
  const e50 = ctx.ema(50);
  const s200 = ctx.sma(200);
  const atr = ctx.atr(14);
  const a = atr[i];
  if (!ok(a) || !ok(e50[i]) || !ok(e50[i - SLOPE_50]) || !ok(s200[i]) || !ok(s200[i - SLOPE_200])) return null;
  const close = ctx.candles.close;
  const c = close[i];
  const { er, move } = moveOf(close, atr, i);
  const sw = swingsOf(ctx);
  const unit = a > 0 ? a : 1;
  return {
    close: c,
    e50: e50[i],
    slope50: (e50[i] - e50[i - SLOPE_50]) / unit,
    slope200: (s200[i] - s200[i - SLOPE_200]) / unit,
    er,
    move,
    structure: structureOf(sw, c, i),
    brokenUp: (ok(sw.low[i]) && c < sw.low[i]) || (ok(sw.prevLow[i]) && sw.low[i] < sw.prevLow[i]),
    brokenDown: (ok(sw.high[i]) && c > sw.high[i]) || (ok(sw.prevHigh[i]) && sw.high[i] > sw.prevHigh[i]),
  };
}

/** The range phase named by the long average: rising after an advance, falling after a decline, else flat. */
function rangeOf(r: Reading): number {
  return r.slope200 > FLAT_200 ? DIST : r.slope200 < -FLAT_200 ? ACC : RANGE;
}

/** True when `phase` points against the net move `move` (in ATR) by more than `bound`. */
function contradicts(phase: number, move: number, bound: number): boolean {
  return (phase === MARKDOWN && move > bound) || (phase === MARKUP && move < -bound);
}

function indicate(r: Reading, cur: number, p: Params): number {
  // A thrust: a net move of minMove ATR beyond EMA50, either efficient or with EMA50 turning its way.
  const thrustUp = r.move >= p.minMove && r.close > r.e50 && (r.er >= p.efficiency || r.slope50 > 0);
  const thrustDown = r.move <= -p.minMove && r.close < r.e50 && (r.er >= p.efficiency || r.slope50 < 0);
  let ind: number;
  if (thrustUp || (r.structure === 'up' && r.slope50 > 0 && r.close > r.e50)) ind = MARKUP;
  else if (thrustDown || (r.structure === 'down' && r.slope50 < 0 && r.close < r.e50)) ind = MARKDOWN;
  // A pause within a trend whose structure holds stays in the trend.
  else if (cur === MARKUP && !r.brokenUp && (r.close > r.e50 || r.slope50 > 0)) ind = MARKUP;
  else if (cur === MARKDOWN && !r.brokenDown && (r.close < r.e50 || r.slope50 < 0)) ind = MARKDOWN;
  else ind = rangeOf(r);
  return contradicts(ind, r.move, p.minMove) ? rangeOf(r) : ind;
}

function walk(ctx: IndicatorContext, p: Params): RegimeSeries {
  const n = ctx.length;
  const phase = new Int8Array(n).fill(-1);
  const indicated = new Int8Array(n).fill(-1);
  const close = ctx.candles.close;
  const atr = ctx.atr(14);
  let cur = -1;
  let start = -1;
  let cand = -1;
  let run = 0;
  for (let i = REGIME_HISTORY - 1; i < n; i++) {
    const r = readingAt(ctx, i);
    if (r === null) continue;
    const a = atr[i];
    const since = (from: number): number => (a > 0 && from >= 0 ? (close[i] - close[from]) / a : 0);
    let ind = indicate(r, cur, p);
    // A trend that still structures the chart but has given back its move since it began is over.
    if (ind === cur && contradicts(cur, since(start), p.minMove)) ind = rangeOf(r);
    indicated[i] = ind;
    if (cur === -1) {
      cur = ind;
      start = i;
    } else if (ind === cur) run = 0;
    else {
      run = ind === cand ? run + 1 : 1;
      cand = ind;
      if (run >= p.confirmBars) {
        cur = ind;
        start = i;
        run = 0;
      }
    }
    // A trend phase never stands against the price: not over the last 20 closes, not since it began.
    // Nor does a range stand through a thrust: a trend indicated over a net move of minMove ATR its way is adopted at once.
    const thrust = (ind === MARKUP && r.move >= p.minMove) || (ind === MARKDOWN && r.move <= -p.minMove);
    const ranging = cur === ACC || cur === DIST || cur === RANGE;
    if ((ranging && thrust) || contradicts(cur, r.move, p.minMove) || contradicts(cur, since(start), p.minMove)) {
      cur = ind;
      start = i;
      run = 0;
    }
    phase[i] = cur;
  }
  return { phase, indicated };
}

/**
 * The regime phase of every bar, in one causal pass (see {@link regime} for the rules).
 * Cached on the context per option set.
 * @throws InputError on bad candles or options.
 */
export function regimeSeries(input: ContextInput, options?: Omit<RegimeOptions, 'asOf'>): RegimeSeries {
  const ctx = contextOf(input);
  const p = paramsOf(options);
  return ctx.memo(`regime:${p.confirmBars}:${p.efficiency}:${p.minMove}`, () => walk(ctx, p));
}

function positionAt(ctx: IndicatorContext, i: number): number {
  const hi = ctx.highest(CHANNEL, i);
  const lo = ctx.lowest(CHANNEL, i);
  if (!ok(hi) || !ok(lo)) return Number.NaN;
  return hi > lo ? (ctx.candles.close[i] - lo) / (hi - lo) : 0.5;
}

function slopeAt(col: Float64Array, atr: Float64Array, i: number, bars: number): number {
  if (i < bars || !ok(col[i]) || !ok(col[i - bars]) || !(atr[i] > 0)) return Number.NaN;
  return (col[i] - col[i - bars]) / atr[i];
}

/**
 * Market phase as of a bar, read from price structure as a chartist reads it, with the last
 * confirmed transition, so a server can push regime changes off `d1`.
 *
 * Per bar, with ATR = ATR(14) (Wilder), swing highs and lows as fractals (a high above the 5
 * highs before it and at least the 5 after it, known 5 bars later; the mirror for lows), the
 * structure `up` when the last swing high and low are above the ones before them (higher highs,
 * higher lows) and the close above the last low, `down` for the mirror, else `mixed`; the slopes
 * `slope50 = (EMA50 - EMA50[10]) / ATR` and `slope200 = (SMA200 - SMA200[20]) / ATR`; and the
 * thrust over the last 20 closes, `er` = Kaufman's efficiency ratio and
 * `move = (close - close[20]) / ATR`. A phase is indicated:
 * - `markup` on an up structure with `slope50 > 0` and the close above EMA50, or an upward thrust
 *   (`move >= minMoveAtr` (2) with the close above EMA50, and `er >= efficiency` (0.3) or
 *   `slope50 > 0`);
 * - `markdown`, the mirror image;
 * - while in markup, a pause keeps `markup` as long as no lower low forms (the close stays above
 *   the last swing low, which stays above the one before) and the close is above EMA50 or EMA50
 *   still rises; the mirror for markdown;
 * - otherwise a range, named by the long average: `distribution` while `slope200 > 0.5`
 *   (a range after an advance), `accumulation` while `slope200 < -0.5` (after a decline), else
 *   `range`.
 * A new phase is adopted once indicated on `confirmBars` (5) consecutive bars. The phase is
 * consistent with its own inputs: it is never `markdown` while the net move of the last 20 closes,
 * or the net move since the phase began, is more than `minMoveAtr` ATR up (never `markup` for the
 * mirror); such a phase gives way at once to what the bar indicates. `bars_in_phase` counts the
 * bars of the phase including the as-of bar (at least 1). The walk needs {@link REGIME_HISTORY}
 * (220) candles; a shorter history reads `phase: null, reason: 'insufficient_data'`. `strength` is
 * the as-of bar's efficiency ratio. Volume is not read: many sources publish none (indices, fx),
 * and the phases must mean the same everywhere. The walk is causal: a prefix reads exactly the
 * same phases.
 * @throws InputError on bad candles or options.
 */
export function regime(input: ContextInput, options?: RegimeOptions): Regime {
  const ctx = contextOf(input);
  const i = asOfIndex(ctx, options?.asOf);
  const series = regimeSeries(ctx, options);
  const { phase } = series;
  const time = ctx.candles.time;
  const atr = ctx.atr(14);
  const { er, move } = moveOf(ctx.candles.close, atr, i);
  const sw = swingsOf(ctx);
  const inputs: Regime['inputs'] = {
    ema_50: orNull(ctx.ema(50)[i]),
    atr_14: orNull(atr[i]),
    efficiency_ratio: orNull(er),
    move_atr: orNull(move),
    channel_position: orNull(positionAt(ctx, i)),
    sma_200: orNull(ctx.sma(200)[i]),
    ema_50_slope_atr: orNull(slopeAt(ctx.ema(50), atr, i, SLOPE_50)),
    sma_200_slope_atr: orNull(slopeAt(ctx.sma(200), atr, i, SLOPE_200)),
    swing_high: orNull(sw.high[i]),
    previous_swing_high: orNull(sw.prevHigh[i]),
    swing_low: orNull(sw.low[i]),
    previous_swing_low: orNull(sw.prevLow[i]),
  };
  const structure = structureOf(sw, ctx.candles.close[i], i);
  const cur = phase[i];
  if (cur < 0) {
    return {
      phase: null,
      previous_phase: null,
      since: null,
      bars_in_phase: null,
      strength: null,
      transition: null,
      changed: false,
      structure,
      inputs,
      reason: 'insufficient_data',
    };
  }
  let start = i;
  while (start > 0 && phase[start - 1] === cur) start--;
  const prev = start > 0 ? phase[start - 1] : -1;
  const transition: RegimeTransition | null =
    prev >= 0 ? { from: REGIME_PHASES[prev], to: REGIME_PHASES[cur], time: time[start], bars_ago: i - start } : null;
  return {
    phase: REGIME_PHASES[cur],
    previous_phase: prev >= 0 ? REGIME_PHASES[prev] : null,
    since: time[start],
    bars_in_phase: i - start + 1,
    strength: orNull(er),
    transition,
    changed: transition !== null && transition.bars_ago === 0,
    structure,
    inputs,
  };
}

/**
 * Every confirmed phase change up to bar `asOf` (default the last), oldest first.
 * @throws InputError on bad candles or options.
 */
export function regimeTransitions(input: ContextInput, options?: RegimeOptions): Omit<RegimeTransition, 'bars_ago'>[] {
  const ctx = contextOf(input);
  const i = asOfIndex(ctx, options?.asOf);
  const { phase } = regimeSeries(ctx, options);
  const out: Omit<RegimeTransition, 'bars_ago'>[] = [];
  for (let j = 1; j <= i; j++) {
    const a = phase[j - 1];
    const b = phase[j];
    if (a >= 0 && b !== a) out.push({ from: REGIME_PHASES[a], to: REGIME_PHASES[b], time: ctx.candles.time[j] });
  }
  return out;
}
