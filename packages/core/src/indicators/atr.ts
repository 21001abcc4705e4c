import type { CandleLike, HLC } from '../types.js';
import { CONVENTIONS, type Convention, checkChoice } from './internal/choice.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, columnsLength, outputColumn } from './internal/validate.js';
import { WARM_HEAD } from './internal/warm.js';
import { Window } from './internal/window.js';
import { type HLCValues, trueRangeOf } from './true-range.js';

/** How {@link atr} averages the true range. */
export type AtrSmoothing = 'wilder' | 'sma' | 'ema';

const SMOOTHINGS: readonly AtrSmoothing[] = ['wilder', 'sma', 'ema'];
const FIELDS = ['high', 'low', 'close'] as const;

/** Options of {@link atr}. */
export interface AtrOptions {
  /** Number of true ranges averaged. Default 14. */
  period?: number;
  /**
   * `'wilder'` (default): Wilder's smoothing (RMA), `atr = (atr * (period - 1) + tr) / period`.
   * `'sma'`: the simple mean of the last `period` true ranges.
   * `'ema'`: an EMA with `k = 2 / (period + 1)`.
   * All three are seeded by the mean of the first `period` true ranges.
   */
  smoothing?: AtrSmoothing;
  /**
   * `'talib'` (default): the true range starts at the second bar (TA-Lib `ATR`), lookback `period`.
   * `'tradingview'`: the first bar's true range is `high - low` (`ta.atr = ta.rma(ta.tr(true), length)`),
   * lookback `period - 1`.
   */
  convention?: Convention;
}

/** Resolved {@link AtrOptions}. @internal */
export interface AtrParams {
  period: number;
  smoothing: AtrSmoothing;
  /** Index of the first true range: 1 (TA-Lib) or 0 (TradingView). */
  first: number;
}

/** Validates {@link AtrOptions}. @internal */
export function atrParams(options?: AtrOptions): AtrParams {
  const period = checkInt('period', options?.period ?? 14, 1);
  const smoothing = checkChoice('smoothing', options?.smoothing ?? 'wilder', SMOOTHINGS);
  const convention = checkChoice('convention', options?.convention ?? 'talib', CONVENTIONS);
  return { period, smoothing, first: convention === 'talib' ? 1 : 0 };
}

/** Index of the first defined ATR. @internal */
export function atrLookback(p: AtrParams): number {
  return p.first + p.period - 1;
}

/**
 * Writes the ATR of `candles[0..n)` into `out` from index {@link atrLookback}; earlier entries
 * are left untouched. Shared by ATR, NATR, Keltner and SuperTrend so that all of them use the
 * exact same arithmetic. Returns the sum of `x * 0` over every value of the three columns: 0
 * when all are finite, NaN otherwise, so a caller can skip a separate check.
 * @internal
 */
export function atrInto(candles: HLC, n: number, params: AtrParams, out: Float64Array): number {
  const { period, smoothing, first } = params;
  const { high, low, close } = candles;
  const start = first + period - 1;
  let bad = 0;
  if (n <= start) {
    for (let i = 0; i < n; i++) bad += high[i] * 0 + low[i] * 0 + close[i] * 0;
    return bad;
  }
  bad = high[0] * 0 + low[0] * 0 + close[0] * 0;
  let sum = first === 0 ? high[0] - low[0] : 0;
  for (let i = 1; i <= start; i++) {
    bad += high[i] * 0 + low[i] * 0 + close[i] * 0;
    sum += trueRangeOf(high[i], low[i], close[i - 1]);
  }
  if (smoothing === 'sma') {
    out[start] = sum / period;
    for (let i = start + 1; i < n; i++) {
      bad += high[i] * 0 + low[i] * 0 + close[i] * 0;
      const j = i - period;
      const old = j === 0 ? high[0] - low[0] : trueRangeOf(high[j], low[j], close[j - 1]);
      sum += trueRangeOf(high[i], low[i], close[i - 1]) - old;
      out[i] = sum / period;
    }
    return bad;
  }
  const acc = sum / period;
  out[start] = acc;
  if (smoothing === 'wilder') {
    // A short first call, so that V8 has run the whole of `wilderTail` with feedback before its
    // loop gets hot (see WARM_HEAD); the second goes on from the last value the first wrote.
    const head = Math.min(n, start + 1 + WARM_HEAD);
    bad += wilderTail(high, low, close, start + 1, head, period, acc, out);
    return bad + wilderTail(high, low, close, head, n, period, out[head - 1], out);
  }
  const k = 2 / (period + 1);
  let e = acc;
  for (let i = start + 1; i < n; i++) {
    bad += high[i] * 0 + low[i] * 0 + close[i] * 0;
    e = (trueRangeOf(high[i], low[i], close[i - 1]) - e) * k + e;
    out[i] = e;
  }
  return bad;
}

/**
 * Wilder's smoothing of the true range from index `from` (`acc` is the ATR at `from - 1`), in a
 * function of its own that does nothing after its loop, so V8's mid-loop (OSR) and full compiles
 * see the same feedback whatever ran before. Same arithmetic as `trueRangeOf`, written out.
 * Returns the sum of `x * 0` over the values it read.
 */
function wilderTail(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  from: number,
  n: number,
  period: number,
  acc: number,
  out: Float64Array,
): number {
  const m = period - 1;
  let a = acc;
  let prevClose = close[from - 1];
  let bad = 0;
  for (let i = from; i < n; i++) {
    const h = high[i];
    const l = low[i];
    const c = close[i];
    bad += h * 0 + l * 0 + c * 0;
    a = (a * m + (Math.max(h, prevClose) - Math.min(l, prevClose))) / period;
    prevClose = c;
    out[i] = a;
  }
  return bad;
}

/**
 * Average True Range (Wilder 1978): the smoothed {@link trueRange}.
 *
 * Default (TA-Lib `ATR`, exactly): the true range starts at the second bar; the first ATR, at
 * index `period`, is the mean of `tr[1..period]`; then Wilder's smoothing
 * `atr = (atr * (period - 1) + tr) / period`. Lookback: `period`.
 *
 * `convention: 'tradingview'` follows `ta.atr(length) = ta.rma(ta.tr(true), length)`: the first
 * bar's true range is `high - low`, so the mean of `tr[0..period-1]` seeds the ATR at index
 * `period - 1`, then the same recurrence. Lookback: `period - 1`.
 *
 * `smoothing: 'sma' | 'ema'` replaces the recurrence by a simple moving average of the last
 * `period` true ranges, or an EMA with `k = 2 / (period + 1)` (`ema = (tr - ema) * k + ema`),
 * with the same seed and lookback. Defaults: period 14, smoothing 'wilder', convention 'talib'.
 */
export const atr = /* @__PURE__ */ withLookback(
  function atr(candles: HLC, options?: AtrOptions): Float64Array {
    const params = atrParams(options);
    const n = columnsLength(candles, FIELDS);
    const out = outputColumn(n, atrLookback(params));
    // The kernel checks the values in its own pass; a non-finite one rereads them for the error.
    if (atrInto(candles, n, params, out) !== 0) checkColumns(candles, FIELDS);
    return out;
  },
  (options?: AtrOptions) => atrLookback(atrParams(options)),
);

/**
 * The ATR state machine shared by the streaming ATR, NATR, Keltner and SuperTrend: `step`
 * consumes one checked bar and returns the ATR (NaN before the lookback); `save` and `restore`
 * give the one-step undo that `replace` needs.
 * @internal
 */
export class AtrState {
  readonly period: number;
  readonly smoothing: AtrSmoothing;
  readonly first: number;
  readonly lookback: number;
  private readonly k: number;
  private readonly window: Window | undefined;
  /** Bars seen. */
  n = 0;
  // The running sum while seeding (and for 'sma' throughout), else the ATR itself.
  private acc = 0;
  private last = Number.NaN;
  private pAcc = 0;
  private pLast = Number.NaN;

  constructor(params: AtrParams) {
    this.period = params.period;
    this.smoothing = params.smoothing;
    this.first = params.first;
    this.lookback = atrLookback(params);
    this.k = 2 / (params.period + 1);
    this.window = params.smoothing === 'sma' ? new Window(params.period) : undefined;
  }

  /** Saves the state before a new bar. */
  save(): void {
    this.pAcc = this.acc;
    this.pLast = this.last;
  }

  /** Restores the state saved before the last bar. */
  restore(): void {
    this.acc = this.pAcc;
    this.last = this.pLast;
    if (this.n > this.first) this.window?.undo();
  }

  /** Consumes bar number `this.n` (1-based, already incremented by the caller). */
  step(c: HLCValues): number {
    const prev = this.last;
    this.last = c.close;
    const j = this.n - 1 - this.first;
    if (j < 0) return Number.NaN;
    const tr = this.n === 1 ? c.high - c.low : trueRangeOf(c.high, c.low, prev);
    const p = this.period;
    const old = this.window === undefined ? 0 : this.window.push(tr);
    if (j < p) {
      this.acc += tr;
      if (j < p - 1) return Number.NaN;
      if (this.smoothing === 'sma') return this.acc / p;
      this.acc = this.acc / p;
      return this.acc;
    }
    if (this.smoothing === 'wilder') {
      this.acc = (this.acc * (p - 1) + tr) / p;
      return this.acc;
    }
    if (this.smoothing === 'ema') {
      this.acc = (tr - this.acc) * this.k + this.acc;
      return this.acc;
    }
    this.acc += tr - old;
    return this.acc / p;
  }
}

/** Streaming {@link atr}. */
export class ATR extends StreamBase<CandleLike, number> {
  readonly period: number;
  readonly lookback: number;
  private readonly state: AtrState;

  constructor(options?: AtrOptions) {
    const params = atrParams(options);
    const lookback = atrLookback(params);
    super(lookback, Number.NaN);
    this.period = params.period;
    this.lookback = lookback;
    this.state = new AtrState(params);
  }

  protected override save(): void {
    this.state.save();
  }

  protected override restore(): void {
    this.state.restore();
  }

  update(candle: CandleLike): number {
    checkCandle(candle, FIELDS);
    this.save();
    this.n++;
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  replace(candle: CandleLike): number {
    checkCandle(candle, FIELDS);
    checkReplace(this.n);
    this.restore();
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  protected step(candle: CandleLike): number {
    this.state.n = this.n;
    return this.state.step(candle as HLCValues);
  }
}
