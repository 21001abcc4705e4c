import type { CandleLike, HLC } from '../types.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, outputColumn } from './internal/validate.js';

/** Options of {@link cci}. */
export interface CciOptions {
  /** Number of typical prices in the mean and the mean deviation. Default 20. */
  period?: number;
}

function periodOf(options?: CciOptions): number {
  return checkInt('period', options?.period ?? 20, 2);
}

const FIELDS = ['high', 'low', 'close'] as const;

/**
 * CCI of the newest typical price `tp` over the ring buffer `buf` (slot `i % period` holds the
 * typical price of candle i), summed in slot order like TA-Lib. Batch and stream share it.
 */
function cciOf(buf: Float64Array, period: number, tp: number): number {
  let sum = 0;
  for (let j = 0; j < period; j++) sum += buf[j];
  const avg = sum / period;
  let dev = 0;
  for (let j = 0; j < period; j++) dev += Math.abs(buf[j] - avg);
  const num = tp - avg;
  return num === 0 || dev === 0 ? 0 : num / (0.015 * (dev / period));
}

/**
 * Commodity Channel Index (Lambert).
 *
 * Formula (TA-Lib `CCI`): typical price `tp = (high + low + close) / 3`;
 * `cci = (tp - mean) / (0.015 * meanDeviation)` over the last `period` typical prices, where
 * `meanDeviation` is the mean of `|tp_i - mean|`. Zero when the deviation from the mean is zero,
 * as in TA-Lib; a flat window (every typical price equal) reads 0 too, where TA-Lib can print
 * +-66.7 when the rounded mean misses the price by an ulp. Default period 20. Lookback: `period - 1`.
 */
export const cci = /* @__PURE__ */ withLookback(
  function cci(candles: HLC, options?: CciOptions): Float64Array {
    const period = periodOf(options);
    const n = checkColumns(candles, FIELDS);
    const out = outputColumn(n, period - 1);
    const { high, low, close } = candles;
    const buf = new Float64Array(period);
    let slot = 0;
    let run = 0;
    let last = Number.NaN;
    for (let i = 0; i < n; i++) {
      const tp = (high[i] + low[i] + close[i]) / 3;
      run = tp === last ? run + 1 : 1;
      last = tp;
      buf[slot] = tp;
      slot = slot + 1 === period ? 0 : slot + 1;
      if (i < period - 1) continue;
      out[i] = run >= period ? 0 : cciOf(buf, period, tp);
    }
    return out;
  },
  (options?: CciOptions) => periodOf(options) - 1,
);

/** Streaming {@link cci}. */
export class CCI extends StreamBase<CandleLike, number> {
  readonly period: number;
  private readonly buf: Float64Array;
  private run = 0;
  private last = Number.NaN;
  private pRun = 0;
  private pLast = Number.NaN;

  constructor(options?: CciOptions) {
    const period = periodOf(options);
    super(period - 1, Number.NaN);
    this.period = period;
    this.buf = new Float64Array(this.period);
  }

  protected override save(): void {
    this.pRun = this.run;
    this.pLast = this.last;
  }

  protected override restore(): void {
    this.run = this.pRun;
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
    // The last candle's slot: what it overwrote has left the window, so replace needs no undo.
    const tp = ((candle.high as number) + (candle.low as number) + (candle.close as number)) / 3;
    this.run = tp === this.last ? this.run + 1 : 1;
    this.last = tp;
    this.buf[(this.n - 1) % this.period] = tp;
    if (this.n < this.period) return Number.NaN;
    return this.run >= this.period ? 0 : cciOf(this.buf, this.period, tp);
  }
}
