import type { CandleLike, HLC } from '../types.js';
import { withLookback } from './internal/define.js';
import { HighLowWindow } from './internal/high-low-window.js';
import { rangePositionInto } from './internal/range-scan.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, columnsLength, outputColumn } from './internal/validate.js';

/** Options of {@link willr}. */
export interface WillROptions {
  /** Candles in the highest-high / lowest-low window. Default 14. */
  period?: number;
}

function periodOf(options?: WillROptions): number {
  return checkInt('period', options?.period ?? 14, 1);
}

const FIELDS = ['high', 'low', 'close'] as const;

/** `(HH - close) / ((HH - LL) / -100)`; -50 on a flat window. */
function percentR(highest: number, lowest: number, close: number): number {
  const diff = (highest - lowest) / -100;
  return diff === 0 ? -50 : (highest - close) / diff;
}

/**
 * Williams %R, from -100 (close at the lowest low) to 0 (close at the highest high).
 *
 * Formula (Williams; TA-Lib `WILLR`): `%R = (HH - close) / ((HH - LL) / -100)` over the highest
 * high HH and lowest low LL of the last `period` candles. A flat window (HH = LL) reads -50, where
 * TA-Lib reads 0. Default period 14. Lookback: `period - 1`.
 */
export const willr = /* @__PURE__ */ withLookback(
  function willr(candles: HLC, options?: WillROptions): Float64Array {
    const period = periodOf(options);
    const n = columnsLength(candles, FIELDS);
    const out = outputColumn(n, period - 1);
    const { high, low, close } = candles;
    if (rangePositionInto(high, low, close, 0, n, period, out, true) !== 0) checkColumns(candles, FIELDS);
    return out;
  },
  (options?: WillROptions) => periodOf(options) - 1,
);

export class WillR extends StreamBase<CandleLike, number> {
  readonly period: number;
  private readonly window: HighLowWindow;

  constructor(options?: WillROptions) {
    const period = periodOf(options);
    super(period - 1, Number.NaN);
    this.period = period;
    this.window = new HighLowWindow(this.period);
  }

  protected override restore(): void {
    this.window.undo();
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
    const w = this.window;
    w.push(candle.high as number, candle.low as number);
    if (this.n < this.period) return Number.NaN;
    return percentR(w.highest, w.lowest, candle.close as number);
  }
}
