import { EMA, emaInto } from './ema.js';
import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkReplace, checkSeries, outputColumn } from './internal/validate.js';

/** Options of {@link rma}. */
export interface RmaOptions {
  /** Number of values; sets the smoothing factor `k = 1 / period`. Default 14. */
  period?: number;
}

function periodOf(options?: RmaOptions): number {
  return checkInt('period', options?.period ?? 14, 1);
}

/**
 * Wilder's moving average (RMA, SMMA): an EMA with `k = 1 / period`, seeded by the simple
 * average of the first `period` values.
 *
 * Formula (Wilder 1978; TradingView `ta.rma`; the smoothing inside TA-Lib `ATR` and `RSI`):
 * `rma[p-1] = mean(x[0..p-1])`, then `rma[i] = rma[i-1] + (x[i] - rma[i-1]) / period`, evaluated
 * with the `ema` arithmetic (`rma[i-1] * (1 - k) + x[i] * k`, `k = 1 / period`). TA-Lib writes
 * the same recurrence as `(rma * (period - 1) + x) / period`; the two agree to rounding.
 * Lookback: `period - 1`.
 */
export const rma = /* @__PURE__ */ withLookback(
  function rma(values: ArrayLike<number>, options?: RmaOptions): Float64Array {
    const period = periodOf(options);
    const n = checkSeries(values);
    const out = outputColumn(n, period - 1);
    emaInto(values, 0, n, period, 1 / period, out);
    return out;
  },
  (options?: RmaOptions) => periodOf(options) - 1,
);

/** Streaming {@link rma}. */
export class RMA extends StreamBase<number, number> {
  readonly period: number;
  private readonly ema: EMA;

  constructor(options?: RmaOptions) {
    const period = periodOf(options);
    super(period - 1, Number.NaN);
    this.period = period;
    this.ema = new EMA({ period, k: 1 / period });
  }

  update(value: number): number {
    checkInput(value);
    this.save();
    this.n++;
    const out = this.step(value, false);
    this.out = out;
    return out;
  }

  replace(value: number): number {
    checkInput(value);
    checkReplace(this.n);
    this.restore();
    const out = this.step(value, true);
    this.out = out;
    return out;
  }

  protected step(value: number, replacing: boolean): number {
    return this.ema.next(value, replacing);
  }
}
