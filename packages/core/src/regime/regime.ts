import { checkInt, checkNumber } from '../indicators/internal/validate.js';
import { asOfIndex, type ContextInput, contextOf, type IndicatorContext, ok, orNull } from '../signal/context.js';

/** Market cycle phases (Wyckoff): a range after a decline, the advance, a range after the advance, the decline. */
export type RegimePhase = 'accumulation' | 'markup' | 'distribution' | 'markdown';

/** The phases, indexed by the codes of {@link RegimeSeries.phase}. */
export const REGIME_PHASES: readonly RegimePhase[] = ['accumulation', 'markup', 'distribution', 'markdown'];

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
  /** Current phase, or null during warm-up (`reason` says so). */
  phase: RegimePhase | null;
  /** Phase before the last transition, or null when none happened yet. */
  previous_phase: RegimePhase | null;
  /** Open time (ms) of the bar that confirmed the current phase (or of the first classified bar). */
  since: number | null;
  /** Bars since `since` (0 on the bar itself). */
  bars_in_phase: number | null;
  /** Trend strength 0..1: the efficiency ratio of the last 20 closes (see {@link regime}). */
  strength: number | null;
  /** The last transition at or before the as-of bar, or null when none happened yet. */
  transition: RegimeTransition | null;
  /** True when the as-of bar confirmed a transition: what a regime-change push reacts to. */
  changed: boolean;
  /** The numbers the classification of the as-of bar read. */
  inputs: {
    ema_50: number | null;
    atr_14: number | null;
    efficiency_ratio: number | null;
    move_atr: number | null;
    channel_position: number | null;
  };
  reason?: 'insufficient_data';
}

/** Options of {@link regime} and {@link regimeSeries}. */
export interface RegimeOptions {
  /** Analyse as of this candle index (only candles `0..asOf` are read). Default: the last candle. */
  asOf?: number;
  /** Consecutive bars a new phase must be indicated before it is adopted. Default 5 (1..50). */
  confirmBars?: number;
  /** Efficiency ratio of the last 20 closes (0..1) at or above which a move is a trend. Default 0.3. */
  efficiency?: number;
  /** Net move of the last 20 closes, in ATR(14) units, at or above which a move is a trend. Default 2. */
  minMoveAtr?: number;
}

/** The phase of every bar (codes into {@link REGIME_PHASES}; -1 before the first classified bar). */
export interface RegimeSeries {
  phase: Int8Array;
  /** Per bar: the raw indication before confirmation (same codes). */
  indicated: Int8Array;
}

const WINDOW = 20;
const SWING = 10;
const CHANNEL = 50;
const ACC = 0;
const MARKUP = 1;
const DIST = 2;
const MARKDOWN = 3;

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
 * What the last `SWING` bars say about the structure, against the `WINDOW` bars before them and
 * EMA50 `SWING` bars ago; every field false until those bars exist (bar 59).
 */
interface Structure {
  /** Close above a rising EMA50 and no lower low: an uptrend that holds. */
  upIntact: boolean;
  /** Close below a falling EMA50 and no higher high: a downtrend that holds. */
  downIntact: boolean;
  /** No higher high: the last bars fail at or below the prior high. */
  failedHigh: boolean;
  /** No lower low: the last bars hold at or above the prior low. */
  failedLow: boolean;
  /** Below EMA50, or a lower low: the advance's structure is broken. */
  upBroken: boolean;
  /** Above EMA50, or a higher high: the decline's structure is broken. */
  downBroken: boolean;
}

const NO_STRUCTURE: Structure = {
  upIntact: false,
  downIntact: false,
  failedHigh: false,
  failedLow: false,
  upBroken: false,
  downBroken: false,
};

function structureAt(ctx: IndicatorContext, e50: Float64Array, i: number): Structure {
  if (i < SWING + WINDOW - 1 || !ok(e50[i]) || !ok(e50[i - SWING])) return NO_STRUCTURE;
  const close = ctx.candles.close;
  const c = close[i];
  const s = e50[i];
  const hiNow = ctx.highest(SWING, i);
  const hiPrev = ctx.highest(WINDOW, i - SWING);
  const loNow = ctx.lowest(SWING, i);
  const loPrev = ctx.lowest(WINDOW, i - SWING);
  return {
    upIntact: c > s && s > e50[i - SWING] && loNow >= loPrev,
    downIntact: c < s && s < e50[i - SWING] && hiNow <= hiPrev,
    failedHigh: hiNow <= hiPrev,
    failedLow: loNow >= loPrev,
    upBroken: c < s || loNow < loPrev,
    downBroken: c > s || hiNow > hiPrev,
  };
}

/** The range indication after an advance (`MARKUP`/`DIST`) or a decline (`MARKDOWN`/`ACC`). */
function rangeAfter(cur: number, st: Structure): number {
  // Out of a range the trend resumes only with a new extreme; within the trend, holding is enough.
  if (cur === MARKUP || cur === DIST) {
    if (st.upIntact && (cur === MARKUP || !st.failedHigh)) return MARKUP;
    return st.failedHigh && st.upBroken ? DIST : cur;
  }
  if (st.downIntact && (cur === MARKDOWN || !st.failedLow)) return MARKDOWN;
  return st.failedLow && st.downBroken ? ACC : cur;
}

function positionAt(ctx: IndicatorContext, i: number): number {
  const hi = ctx.highest(CHANNEL, i);
  const lo = ctx.lowest(CHANNEL, i);
  if (!ok(hi) || !ok(lo)) return Number.NaN;
  return hi > lo ? (ctx.candles.close[i] - lo) / (hi - lo) : 0.5;
}

function walk(ctx: IndicatorContext, p: Params): RegimeSeries {
  const n = ctx.length;
  const phase = new Int8Array(n).fill(-1);
  const indicated = new Int8Array(n).fill(-1);
  const close = ctx.candles.close;
  const e50 = ctx.ema(50);
  const atr = ctx.atr(14);
  let cur = -1;
  let cand = -1;
  let run = 0;
  for (let i = WINDOW; i < n; i++) {
    const s = e50[i];
    if (!ok(s)) continue;
    const { er, move } = moveOf(close, atr, i);
    if (!ok(er)) continue;
    const c = close[i];
    // Hysteresis: a trend in force stays indicated at half the entry thresholds.
    const k = cur === MARKUP || cur === MARKDOWN ? 0.5 : 1;
    const up = cur === MARKUP ? k : 1;
    const down = cur === MARKDOWN ? k : 1;
    let ind: number;
    if (er >= p.efficiency * up && move >= p.minMove * up && c > s) ind = MARKUP;
    else if (er >= p.efficiency * down && move <= -p.minMove * down && c < s) ind = MARKDOWN;
    else if (cur >= 0) ind = rangeAfter(cur, structureAt(ctx, e50, i));
    else {
      // The first phase: a trend whose structure holds, else a range by its position.
      if (!ok(e50[i - SWING])) continue;
      const st = structureAt(ctx, e50, i);
      if (st.upIntact) ind = MARKUP;
      else if (st.downIntact) ind = MARKDOWN;
      else ind = positionAt(ctx, i) > 0.5 ? DIST : ACC;
    }
    indicated[i] = ind;
    if (cur === -1) cur = ind;
    else if (ind === cur) run = 0;
    else {
      run = ind === cand ? run + 1 : 1;
      cand = ind;
      if (run >= p.confirmBars) {
        cur = ind;
        run = 0;
      }
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

/**
 * Market cycle phase (Wyckoff's accumulation, markup, distribution, markdown) as of a bar,
 * with the last confirmed transition, so a server can push regime changes off `d1`.
 *
 * Per bar, over the last 20 closes, with `er` = Kaufman's efficiency ratio
 * `|close - close[20]| / sum(|close[j] - close[j-1]|)` and `move = (close - close[20]) / ATR14`,
 * a thrust is indicated:
 * - `markup` when `er >= efficiency` (0.3), `move >= minMoveAtr` (2) and `close > EMA50`;
 * - `markdown` when `er >= efficiency`, `move <= -minMoveAtr` and `close < EMA50`;
 * - while in markup (markdown), that trend stays indicated at half both thresholds (hysteresis).
 * Without a thrust the structure decides, reading the last 10 bars against the 20 bars before
 * them and EMA50 against its value 10 bars ago:
 * - an uptrend holds while the close is above a rising EMA50 and the last 10 bars make no lower
 *   low (their lowest low >= the prior 20 bars' lowest low). While in markup that keeps
 *   `markup`: a pause within an intact uptrend is not distribution. Out of distribution it
 *   indicates `markup` again only with a new high as well (the advance resumed);
 * - after markup (or in distribution), `distribution` needs evidence of it: a failed high (the
 *   last 10 bars' highest high <= the prior 20 bars' highest high) and a broken structure (the
 *   close below EMA50, or a lower low). Without it the phase in force stays indicated;
 * - after markdown (or in accumulation), the mirror image: a downtrend holds while the close is
 *   below a falling EMA50 and the last 10 bars make no higher high (`markdown`); `accumulation`
 *   needs a failed low (no lower low) and a broken structure (the close above EMA50, or a
 *   higher high).
 * The first phase is the thrust, else the trend whose structure holds, else a range by the
 * close's position in the 50-bar high-low channel (upper half: distribution, else
 * accumulation). A new phase is adopted once indicated on `confirmBars` (5) consecutive bars;
 * the adopting bar is the transition's `time`. The walk starts once EMA50 is defined (bar 49),
 * and without a thrust once the structure can be read (bar 59), so shorter series read
 * `phase: null, reason: 'insufficient_data'`. `strength` is the as-of bar's efficiency ratio.
 * Volume is not read: many sources publish none (indices, fx), and the phases must mean the same
 * everywhere. The walk is causal: a prefix reads exactly the same phases.
 * @throws InputError on bad candles or options.
 */
export function regime(input: ContextInput, options?: RegimeOptions): Regime {
  const ctx = contextOf(input);
  const i = asOfIndex(ctx, options?.asOf);
  const series = regimeSeries(ctx, options);
  const { phase } = series;
  const time = ctx.candles.time;
  const { er, move } = moveOf(ctx.candles.close, ctx.atr(14), i);
  const inputs = {
    ema_50: orNull(ctx.ema(50)[i]),
    atr_14: orNull(ctx.atr(14)[i]),
    efficiency_ratio: orNull(er),
    move_atr: orNull(move),
    channel_position: orNull(positionAt(ctx, i)),
  };
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
    bars_in_phase: i - start,
    strength: orNull(er),
    transition,
    changed: transition !== null && transition.bars_ago === 0,
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
