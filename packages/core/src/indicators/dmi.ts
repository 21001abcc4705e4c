import type { CandleLike, HLC } from '../types.js';
import { CONVENTIONS, type Convention, checkChoice } from './internal/choice.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, columnsLength, outputColumn } from './internal/validate.js';
import { WARM_HEAD } from './internal/warm.js';
import { type HLCValues, trueRangeOf } from './true-range.js';

/** Options of {@link dmi} and `adx`. */
export interface DmiOptions {
  /** Number of bars of Wilder smoothing, for the DIs and for the ADX. Default 14. */
  period?: number;
  /**
   * `'talib'` (default): TA-Lib's seeding, the sums of the first `period - 1` directional
   * movements and true ranges followed by one Wilder step.
   * `'tradingview'`: TradingView's DMI script (`ta.rma` of the DMs and of `ta.tr`), seeded by
   * the mean of the first `period` values (bars 1..period). Same lookbacks; the two converge.
   */
  convention?: Convention;
}

/** Output of {@link dmi}. */
export type DmiOutput = {
  /** +DI, in 0..100. */
  plusDI: Float64Array;
  /** -DI, in 0..100. */
  minusDI: Float64Array;
  /** DX, in 0..100. */
  dx: Float64Array;
};

/** Resolved {@link DmiOptions}. @internal */
export interface DmiParams {
  period: number;
  tradingview: boolean;
}

/** Validates {@link DmiOptions}. @internal */
export function dmiParams(options?: DmiOptions): DmiParams {
  const period = checkInt('period', options?.period ?? 14, 1);
  const convention = checkChoice('convention', options?.convention ?? 'talib', CONVENTIONS);
  return { period, tradingview: convention === 'tradingview' };
}

const FIELDS = ['high', 'low', 'close'] as const;

/** 100 * dm / tr, 0 when the smoothed true range is exactly 0 (no movement at all). */
function di(dm: number, tr: number): number {
  return tr === 0 ? 0 : 100 * (dm / tr);
}

/**
 * DX from the DIs, TA-Lib's `100 * |(-DI) - (+DI)| / ((-DI) + (+DI))`, 0 when both are exactly 0.
 * Algebraically the true range cancels, but not in rounding: where the DIs nearly cancel, the
 * shortcut from the smoothed movements differs from TA-Lib by more than 1e-9 relative (seen on a
 * near-flat series), so the DIs' form is kept.
 */
function dxOf(plus: number, minus: number): number {
  const sum = minus + plus;
  return sum === 0 ? 0 : 100 * (Math.abs(minus - plus) / sum);
}

/**
 * Writes the directional movement system of `candles[0..n)` into whichever of the columns are
 * given: +DI, -DI and DX from index `period`, ADX from index `2 * period - 1`; earlier entries
 * are left untouched. One pass, shared by `dmi` and `adx` so that both use the same arithmetic.
 * Returns the sum of `x * 0` over every value it read (every value of the three columns when
 * `n > period`): 0 when all are finite, NaN otherwise, so callers can skip a separate check.
 * @internal
 */
export function dmiInto(
  candles: HLC,
  n: number,
  params: DmiParams,
  plusDI: Float64Array | null,
  minusDI: Float64Array | null,
  dxOut: Float64Array | null,
  adxOut: Float64Array | null,
): number {
  const p = params.period;
  const high = candles.high;
  const low = candles.low;
  const close = candles.close;
  if (n <= p) {
    let bad = 0;
    for (let i = 0; i < n; i++) bad += high[i] * 0 + low[i] * 0 + close[i] * 0;
    return bad;
  }
  const tradingview = params.tradingview;
  // The seed: TA-Lib sums bars 1..p-1 then takes a Wilder step at bar p; TradingView averages bars 1..p.
  const seedEnd = tradingview ? p : p - 1;
  let pdm = 0;
  let mdm = 0;
  let tr = 0;
  let prevHigh = high[0];
  let prevLow = low[0];
  let prevClose = close[0];
  let bad = prevHigh * 0 + prevLow * 0 + prevClose * 0;
  for (let i = 1; i <= seedEnd; i++) {
    const h = high[i];
    const l = low[i];
    const c = close[i];
    bad += h * 0 + l * 0 + c * 0;
    const up = h - prevHigh;
    const down = prevLow - l;
    prevHigh = h;
    prevLow = l;
    if (down > 0 && up < down) mdm += down;
    else if (up > 0 && up > down) pdm += up;
    tr += trueRangeOf(h, l, prevClose);
    prevClose = c;
  }
  const m = p - 1;
  if (tradingview) {
    pdm /= p;
    mdm /= p;
    tr /= p;
  }
  const wantDx = dxOut !== null || adxOut !== null;
  let adx = 0;
  // Warm-up (ADX seeding) in a general loop; the steady state is straight-line code in its own
  // function (below), so V8 compiles it with complete type feedback whatever ran before.
  const steadyFrom = Math.min(n, 2 * p);
  for (let i = p; i < steadyFrom; i++) {
    if (i > seedEnd) {
      const h = high[i];
      const l = low[i];
      const c = close[i];
      bad += h * 0 + l * 0 + c * 0;
      const up = h - prevHigh;
      const down = prevLow - l;
      prevHigh = h;
      prevLow = l;
      const plus = up > 0 && up > down ? up : 0;
      const minus = down > 0 && up < down ? down : 0;
      const t = trueRangeOf(h, l, prevClose);
      prevClose = c;
      if (tradingview) {
        pdm = (pdm * m + plus) / p;
        mdm = (mdm * m + minus) / p;
        tr = (tr * m + t) / p;
      } else {
        pdm = pdm - pdm / p + plus;
        mdm = mdm - mdm / p + minus;
        tr = tr - tr / p + t;
      }
    }
    const pdi = di(pdm, tr);
    const mdi = di(mdm, tr);
    if (plusDI !== null) plusDI[i] = pdi;
    if (minusDI !== null) minusDI[i] = mdi;
    if (!wantDx) continue;
    const dx = dxOf(pdi, mdi);
    if (dxOut !== null) dxOut[i] = dx;
    if (adxOut === null) continue;
    const k = i - p;
    if (k < m) adx += dx;
    else if (k === m) {
      adx = (adx + dx) / p;
      adxOut[i] = adx;
    } else {
      adx = (adx * m + dx) / p;
      adxOut[i] = adx;
    }
  }
  if (steadyFrom === n) return bad;
  const state = new Float64Array(7);
  state[0] = pdm;
  state[1] = mdm;
  state[2] = tr;
  state[3] = adx;
  state[4] = prevHigh;
  state[5] = prevLow;
  state[6] = prevClose;
  // A short first call, so that V8 has run the whole function (entry, loop and exit) with
  // feedback before its loop gets hot; see WARM_HEAD.
  const head = Math.min(n, steadyFrom + WARM_HEAD);
  if (adxOut !== null && plusDI === null && minusDI === null && dxOut === null && !tradingview) {
    // `adx` with TA-Lib's seeding: the loop with nothing else in it (see adxSteady).
    bad += adxSteady(high, low, close, steadyFrom, head, p, state, adxOut);
    return bad + adxSteady(high, low, close, head, n, p, state, adxOut);
  }
  bad += dmiSteady(high, low, close, steadyFrom, head, p, tradingview, state, plusDI, minusDI, dxOut, adxOut);
  return bad + dmiSteady(high, low, close, head, n, p, tradingview, state, plusDI, minusDI, dxOut, adxOut);
}

// The steady-state loops (bar 2 * period on). Each is a function of its own that does nothing
// after its loop, so the optimised code V8 enters mid-loop (on-stack replacement) and the code it
// compiles for the next call see the same complete feedback: the ADX kernel once fell off its
// optimised path depending on which kernels had run before it. The maths is written out (not
// via `di`, `dxOf`, `trueRangeOf`) so no inlining budget or shared feedback decides its speed;
// it is the same arithmetic, in the same order, as the warm-up above and `DmiState.step`.
// The directional movements are selected without branches (`x * +(cond)`, which is x or a zero
// that adds nothing): whether a bar moves up or down is a coin toss the branch predictor loses.
// `state` holds pdm, mdm, tr, adx, prevHigh, prevLow, prevClose, read on entry and written back
// on exit; each returns the sum of x * 0.

/** Any combination of the four columns, either convention. */
function dmiSteady(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  from: number,
  n: number,
  p: number,
  tradingview: boolean,
  state: Float64Array,
  plusDI: Float64Array | null,
  minusDI: Float64Array | null,
  dxOut: Float64Array | null,
  adxOut: Float64Array | null,
): number {
  const m = p - 1;
  let pdm = state[0];
  let mdm = state[1];
  let tr = state[2];
  let adx = state[3];
  let prevHigh = state[4];
  let prevLow = state[5];
  let prevClose = state[6];
  let bad = 0;
  for (let i = from; i < n; i++) {
    const h = high[i];
    const l = low[i];
    const c = close[i];
    bad += h * 0 + l * 0 + c * 0;
    const up = h - prevHigh;
    const down = prevLow - l;
    const t = Math.max(h, prevClose) - Math.min(l, prevClose);
    prevHigh = h;
    prevLow = l;
    prevClose = c;
    const plus = up * (+(up > 0) * +(up > down));
    const minus = down * (+(down > 0) * +(up < down));
    if (tradingview) {
      pdm = (pdm * m + plus) / p;
      mdm = (mdm * m + minus) / p;
      tr = (tr * m + t) / p;
    } else {
      pdm = pdm - pdm / p + plus;
      mdm = mdm - mdm / p + minus;
      tr = tr - tr / p + t;
    }
    const pdi = tr === 0 ? 0 : 100 * (pdm / tr);
    const mdi = tr === 0 ? 0 : 100 * (mdm / tr);
    if (plusDI !== null) plusDI[i] = pdi;
    if (minusDI !== null) minusDI[i] = mdi;
    const sum = mdi + pdi;
    const dx = sum === 0 ? 0 : 100 * (Math.abs(mdi - pdi) / sum);
    if (dxOut !== null) dxOut[i] = dx;
    if (adxOut !== null) {
      adx = (adx * m + dx) / p;
      adxOut[i] = adx;
    }
  }
  state[0] = pdm;
  state[1] = mdm;
  state[2] = tr;
  state[3] = adx;
  state[4] = prevHigh;
  state[5] = prevLow;
  state[6] = prevClose;
  return bad;
}

/**
 * The ADX column alone, TA-Lib's convention: {@link dmiSteady}'s arithmetic for that case, in the
 * same order, without the convention test and the three column tests. Those are predictable
 * branches, yet V8 keeps them in the loop and each costs: standalone copies, per million bars,
 * 14.6 ms with both, 14.3 with the convention test removed, 14.4 to 15.1 with the column tests
 * removed, 12.6 to 13.1 with neither. The floor is the seven divisions per bar (a loop of seven
 * independent divisions and nothing else: 12.9 ms here), so this loop is about at it.
 */
function adxSteady(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  from: number,
  n: number,
  p: number,
  state: Float64Array,
  adxOut: Float64Array,
): number {
  const m = p - 1;
  let pdm = state[0];
  let mdm = state[1];
  let tr = state[2];
  let adx = state[3];
  let prevHigh = state[4];
  let prevLow = state[5];
  let prevClose = state[6];
  let bad = 0;
  for (let i = from; i < n; i++) {
    const h = high[i];
    const l = low[i];
    const c = close[i];
    bad += h * 0 + l * 0 + c * 0;
    const up = h - prevHigh;
    const down = prevLow - l;
    const t = Math.max(h, prevClose) - Math.min(l, prevClose);
    prevHigh = h;
    prevLow = l;
    prevClose = c;
    const plus = up * (+(up > 0) * +(up > down));
    const minus = down * (+(down > 0) * +(up < down));
    pdm = pdm - pdm / p + plus;
    mdm = mdm - mdm / p + minus;
    tr = tr - tr / p + t;
    const pdi = tr === 0 ? 0 : 100 * (pdm / tr);
    const mdi = tr === 0 ? 0 : 100 * (mdm / tr);
    const sum = mdi + pdi;
    const dx = sum === 0 ? 0 : 100 * (Math.abs(mdi - pdi) / sum);
    adx = (adx * m + dx) / p;
    adxOut[i] = adx;
  }
  state[0] = pdm;
  state[1] = mdm;
  state[2] = tr;
  state[3] = adx;
  state[4] = prevHigh;
  state[5] = prevLow;
  state[6] = prevClose;
  return bad;
}

/**
 * The directional movement state machine shared by the streaming DMI and ADX: `step` consumes
 * one checked bar (`n` already incremented) and sets `plusDI`, `minusDI`, `dx` (NaN before the
 * lookback) and `adx` (NaN before `2 * period - 1`); `save` and `restore` give the one-step undo
 * that `replace` needs. Same operations in the same order as {@link dmiInto}.
 * @internal
 */
export class DmiState {
  readonly period: number;
  readonly tradingview: boolean;
  n = 0;
  plusDI = Number.NaN;
  minusDI = Number.NaN;
  dx = Number.NaN;
  adx = Number.NaN;
  private pdm = 0;
  private mdm = 0;
  private tr = 0;
  private adxAcc = 0;
  private prevHigh = 0;
  private prevLow = 0;
  private prevClose = 0;
  private readonly saved = new Float64Array(7);

  constructor(params: DmiParams) {
    this.period = params.period;
    this.tradingview = params.tradingview;
  }

  save(): void {
    const s = this.saved;
    s[0] = this.pdm;
    s[1] = this.mdm;
    s[2] = this.tr;
    s[3] = this.adxAcc;
    s[4] = this.prevHigh;
    s[5] = this.prevLow;
    s[6] = this.prevClose;
  }

  restore(): void {
    const s = this.saved;
    this.pdm = s[0];
    this.mdm = s[1];
    this.tr = s[2];
    this.adxAcc = s[3];
    this.prevHigh = s[4];
    this.prevLow = s[5];
    this.prevClose = s[6];
  }

  step(c: HLCValues): void {
    const i = this.n - 1;
    const p = this.period;
    const m = p - 1;
    const h = c.high;
    const l = c.low;
    this.plusDI = Number.NaN;
    this.minusDI = Number.NaN;
    this.dx = Number.NaN;
    this.adx = Number.NaN;
    if (i === 0) {
      this.prevHigh = h;
      this.prevLow = l;
      this.prevClose = c.close;
      return;
    }
    const up = h - this.prevHigh;
    const down = this.prevLow - l;
    const t = trueRangeOf(h, l, this.prevClose);
    this.prevHigh = h;
    this.prevLow = l;
    this.prevClose = c.close;
    const seedEnd = this.tradingview ? p : p - 1;
    if (i <= seedEnd) {
      if (down > 0 && up < down) this.mdm += down;
      else if (up > 0 && up > down) this.pdm += up;
      this.tr += t;
      if (i < p) return;
      this.pdm /= p;
      this.mdm /= p;
      this.tr /= p;
    } else {
      const plus = up > 0 && up > down ? up : 0;
      const minus = down > 0 && up < down ? down : 0;
      if (this.tradingview) {
        this.pdm = (this.pdm * m + plus) / p;
        this.mdm = (this.mdm * m + minus) / p;
        this.tr = (this.tr * m + t) / p;
      } else {
        this.pdm = this.pdm - this.pdm / p + plus;
        this.mdm = this.mdm - this.mdm / p + minus;
        this.tr = this.tr - this.tr / p + t;
      }
    }
    const pdi = di(this.pdm, this.tr);
    const mdi = di(this.mdm, this.tr);
    const dx = dxOf(pdi, mdi);
    this.plusDI = pdi;
    this.minusDI = mdi;
    this.dx = dx;
    const k = i - p;
    if (k < m) this.adxAcc += dx;
    else if (k === m) {
      this.adxAcc = (this.adxAcc + dx) / p;
      this.adx = this.adxAcc;
    } else {
      this.adxAcc = (this.adxAcc * m + dx) / p;
      this.adx = this.adxAcc;
    }
  }
}

/**
 * Directional Movement Index (Wilder 1978): +DI, -DI and DX.
 *
 * Formula (TA-Lib `PLUS_DI`, `MINUS_DI`, `DX`, exactly): with `up = high - prevHigh` and
 * `down = prevLow - low`, `+DM = up` when `up > 0 && up > down`, `-DM = down` when
 * `down > 0 && down > up`, else 0; Wilder sums seeded by the sums of the first `period - 1`
 * values, then `s = s - s / period + x` for +DM, -DM and the {@link trueRange};
 * `+DI = 100 * +DM14 / TR14`, `-DI` likewise, `DX = 100 * |(-DI) - (+DI)| / ((-DI) + (+DI))`,
 * computed as `100 * |-DM14 - +DM14| / (-DM14 + +DM14)` (TR14 cancels; equal up to rounding).
 *
 * Where TA-Lib tests a divisor against its absolute 1e-8 threshold, this tests exact zero: a
 * zero smoothed true range reads DI 0, and DI summing to exactly 0 read DX 0 (TA-Lib reads DI 0
 * and repeats the previous DX below 1e-8, which also catches genuine values on sub-cent prices).
 * `convention: 'tradingview'` seeds by the means of bars 1..period (TradingView's DMI script,
 * `ta.rma`), which changes only the first values. Defaults: period 14. Lookback: `period`.
 */
export const dmi = /* @__PURE__ */ withLookback(
  function dmi(candles: HLC, options?: DmiOptions): DmiOutput {
    const params = dmiParams(options);
    const n = columnsLength(candles, FIELDS);
    const lb = params.period;
    const out = { plusDI: outputColumn(n, lb), minusDI: outputColumn(n, lb), dx: outputColumn(n, lb) };
    if (dmiInto(candles, n, params, out.plusDI, out.minusDI, out.dx, null) !== 0) checkColumns(candles, FIELDS);
    return out;
  },
  (options?: DmiOptions) => dmiParams(options).period,
);

/** Streaming {@link dmi}. */
export class DMI extends StreamBase<CandleLike, DmiValues> {
  readonly period: number;
  private readonly state: DmiState;

  constructor(options?: DmiOptions) {
    const params = dmiParams(options);
    super(params.period, { plusDI: Number.NaN, minusDI: Number.NaN, dx: Number.NaN });
    this.period = params.period;
    this.state = new DmiState(params);
  }

  /** The newest +DI, -DI and DX (NaN before the lookback), a fresh object on each read. */
  override get value(): DmiValues {
    const s = this.state;
    return { plusDI: s.plusDI, minusDI: s.minusDI, dx: s.dx };
  }

  protected override save(): void {
    this.state.save();
  }

  protected override restore(): void {
    this.state.restore();
  }

  // `value` is built from the state on each read, so the fresh record of `step` is not kept:
  // unused by the caller, it is never allocated.
  update(candle: CandleLike): DmiValues {
    checkCandle(candle, FIELDS);
    this.save();
    this.n++;
    return this.step(candle);
  }

  replace(candle: CandleLike): DmiValues {
    checkCandle(candle, FIELDS);
    checkReplace(this.n);
    this.restore();
    return this.step(candle);
  }

  protected step(candle: CandleLike): DmiValues {
    const s = this.state;
    s.n = this.n;
    s.step(candle as HLCValues);
    return { plusDI: s.plusDI, minusDI: s.minusDI, dx: s.dx };
  }
}

/** One row of {@link dmi}, as streamed by {@link DMI}. */
export type DmiValues = {
  plusDI: number;
  minusDI: number;
  dx: number;
};
