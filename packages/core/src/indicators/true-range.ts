import type { CandleLike, HLC } from '../types.js';
import { CONVENTIONS, type Convention, checkChoice } from './internal/choice.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkReplace, outputColumn } from './internal/validate.js';

/** Options of {@link trueRange}. */
export interface TrueRangeOptions {
  /**
   * `'talib'` (default): the first bar has no previous close and no true range (TA-Lib `TRANGE`).
   * `'tradingview'`: the first bar's true range is its `high - low` (TradingView `ta.tr(true)`).
   */
  convention?: Convention;
}

const FIELDS = ['high', 'low', 'close'] as const;

function firstOf(options?: TrueRangeOptions): number {
  return checkChoice('convention', options?.convention ?? 'talib', CONVENTIONS) === 'talib' ? 1 : 0;
}

/**
 * The true range of one bar given the previous close, in TA-Lib's order of operations:
 * `max(high - low, |prevClose - high|, |prevClose - low|)`. Shared by every indicator built on
 * the true range (ATR, NATR, DMI, ADX, Keltner, SuperTrend) so that all of them agree exactly.
 * @internal
 */
export function trueRangeOf(high: number, low: number, prevClose: number): number {
  // max(h, pc) - min(l, pc) is exactly TA-Lib's max(h - l, |pc - h|, |pc - l|): the result is the
  // same single subtraction in every case, and Math.max/min compile without unpredictable branches.
  return Math.max(high, prevClose) - Math.min(low, prevClose);
}

/**
 * True range (Wilder 1978): the bar's range extended to the previous close,
 * `max(high - low, |high - prevClose|, |low - prevClose|)`.
 *
 * Formula and lookback follow TA-Lib `TRANGE`: the first bar has no previous close, so the
 * output starts at the second bar. Lookback: 1. With `convention: 'tradingview'` the first bar
 * reads `high - low` (TradingView `ta.tr(true)`, the input of `ta.atr`), lookback 0.
 */
export const trueRange = /* @__PURE__ */ withLookback(
  function trueRange(candles: HLC, options?: TrueRangeOptions): Float64Array {
    const first = firstOf(options);
    const n = checkColumns(candles, FIELDS);
    const { high, low, close } = candles;
    const out = outputColumn(n, first);
    if (first === 0) out[0] = high[0] - low[0];
    for (let i = 1; i < n; i++) out[i] = trueRangeOf(high[i], low[i], close[i - 1]);
    return out;
  },
  (options?: TrueRangeOptions) => firstOf(options),
);

/** Streaming {@link trueRange}. */
export class TrueRange extends StreamBase<CandleLike, number> {
  readonly lookback: number;
  private last = Number.NaN;
  private pLast = Number.NaN;

  constructor(options?: TrueRangeOptions) {
    const lookback = firstOf(options);
    super(lookback, Number.NaN);
    this.lookback = lookback;
  }

  protected override save(): void {
    this.pLast = this.last;
  }

  protected override restore(): void {
    this.last = this.pLast;
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
    const c = candle as HLCValues;
    const prev = this.last;
    this.last = c.close;
    if (this.n > 1) return trueRangeOf(c.high, c.low, prev);
    return this.lookback === 0 ? c.high - c.low : Number.NaN;
  }
}

/** A candle whose high, low and close have been checked. @internal */
export interface HLCValues {
  high: number;
  low: number;
  close: number;
}
