import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkReplace, checkSeries, outputInto, seriesLength } from './internal/validate.js';
import { Window } from './internal/window.js';

/** Options of {@link sma}. */
export interface SmaOptions {
  /** Number of values averaged. Default 20. */
  period?: number;
  /**
   * An array to write the result into instead of a new one: a `Float64Array` of the input's
   * length that does not share memory with it (else an `invalid_option` error). It is returned.
   */
  out?: Float64Array;
}

function periodOf(options?: SmaOptions): number {
  return checkInt('period', options?.period ?? 20, 1);
}

/**
 * Simple moving average: the arithmetic mean of the last `period` values.
 *
 * Formula (TA-Lib `SMA`): the mean of the last `period` values, kept as a running sum updated by
 * the difference of the newest and the dropped value (TA-Lib's sum, up to rounding). Lookback: `period - 1`.
 * With `options.out` it writes into the caller's array and allocates nothing: the fresh 8 MB of a
 * million-value result costs more than this kernel's arithmetic, so a caller that recomputes
 * often can reuse one array.
 */
export const sma = /* @__PURE__ */ withLookback(
  function sma(values: ArrayLike<number>, options?: SmaOptions): Float64Array {
    const period = periodOf(options);
    const n = seriesLength(values);
    const out = outputInto(options?.out, n, period - 1, values);
    if (n < period) {
      checkSeries(values);
      return out;
    }
    if (smaInto(values, n, period, out) !== 0) checkSeries(values);
    return out;
  },
  (options?: SmaOptions) => periodOf(options) - 1,
);

/**
 * The kernel: writes the SMA of `values[0..n)` into `out` from index `period - 1` (n >= period) and
 * returns the sum of `x * 0` over the values (0 when all are finite, else NaN), which is the
 * finiteness check folded into this pass. A function of its own, with nothing after its loop, so
 * the code V8 enters mid-loop (on-stack replacement) and the code it compiles for later calls
 * see the same complete feedback whatever the caller's options or what ran before.
 */
function smaInto(values: ArrayLike<number>, n: number, period: number, out: Float64Array): number {
  let bad = 0;
  let sum = 0;
  for (let i = 0; i < period; i++) {
    const x = values[i];
    bad += x * 0;
    sum += x;
  }
  out[period - 1] = sum / period;
  // Adding the difference keeps a single add on the loop-carried chain.
  for (let i = period; i < n; i++) {
    const x = values[i];
    bad += x * 0;
    sum += x - values[i - period];
    out[i] = sum / period;
  }
  return bad;
}

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
