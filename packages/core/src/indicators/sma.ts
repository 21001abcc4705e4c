import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkReplace, checkSeries, outputColumn } from './internal/validate.js';
import { Window } from './internal/window.js';

/** Options of {@link sma}. */
export interface SmaOptions {
  /** Number of values averaged. Default 20. */
  period?: number;
}

function periodOf(options?: SmaOptions): number {
  return checkInt('period', options?.period ?? 20, 1);
}

/**
 * Simple moving average: the arithmetic mean of the last `period` values.
 *
 * Formula (TA-Lib `SMA`): the mean of the last `period` values, kept as a running sum updated by
 * the difference of the newest and the dropped value (TA-Lib's sum, up to rounding). Lookback: `period - 1`.
 */
export const sma = /* @__PURE__ */ withLookback(
  function sma(values: ArrayLike<number>, options?: SmaOptions): Float64Array {
    const period = periodOf(options);
    const n = checkSeries(values);
    const out = outputColumn(n, period - 1);
    if (n < period) return out;
    let sum = 0;
    for (let i = 0; i < period; i++) sum += values[i];
    out[period - 1] = sum / period;
    // Adding the difference keeps a single add on the loop-carried chain.
    for (let i = period; i < n; i++) {
      sum += values[i] - values[i - period];
      out[i] = sum / period;
    }
    return out;
  },
  (options?: SmaOptions) => periodOf(options) - 1,
);

/** Streaming {@link sma}. */
export class SMA extends StreamBase<number, number> {
  readonly period: number;
  private readonly window: Window;
  private sum = 0;
  private prevSum = 0;

  constructor(options?: SmaOptions) {
    const period = periodOf(options);
    super(period - 1, Number.NaN);
    this.period = period;
    this.window = new Window(period);
  }

  protected override save(): void {
    this.prevSum = this.sum;
  }

  protected override restore(): void {
    this.window.undo();
    this.sum = this.prevSum;
  }

  update(value: number): number {
    checkInput(value);
    this.save();
    this.n++;
    const out = this.step(value);
    this.out = out;
    return out;
  }

  replace(value: number): number {
    checkInput(value);
    checkReplace(this.n);
    this.restore();
    const out = this.step(value);
    this.out = out;
    return out;
  }

  protected step(value: number): number {
    const evicted = this.window.push(value);
    if (this.n <= this.period) {
      this.sum += value;
      return this.n < this.period ? Number.NaN : this.sum / this.period;
    }
    this.sum += value - evicted;
    return this.sum / this.period;
  }
}
