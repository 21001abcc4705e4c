import { withLookback } from './internal/define.js';
import { checkInt, checkNumber, checkReplace, checkSeries, checkValue, outputColumn } from './internal/validate.js';
import type { Stream } from './stream.js';

/** Options of {@link ema}. */
export interface EmaOptions {
  /** Number of values; sets the smoothing factor `k = 2 / (period + 1)`. Default 20. */
  period?: number;
  /**
   * Smoothing factor override in (0, 1]. Wilder's RMA is `k = 1 / period` (see `rma`).
   * Default `2 / (period + 1)`.
   */
  k?: number;
}

function paramsOf(options?: EmaOptions): { period: number; k: number } {
  const period = checkInt('period', options?.period ?? 20, 1);
  const k = options?.k === undefined ? 2 / (period + 1) : checkNumber('k', options.k, Number.MIN_VALUE, 1);
  return { period, k };
}

/**
 * Exponential moving average, seeded by the simple average of the first `period` values.
 *
 * Formula (TA-Lib `EMA`, default compatibility): `ema[p-1] = mean(x[0..p-1])`, then
 * `ema[i] = ema[i-1] + k * (x[i] - ema[i-1])` with `k = 2 / (period + 1)`, evaluated as
 * `ema[i-1] * (1 - k) + x[i] * k` (agrees with TA-Lib to rounding, about 1e-15 relative).
 * Lookback: `period - 1`.
 */
export const ema = withLookback(
  function ema(values: ArrayLike<number>, options?: EmaOptions): Float64Array {
    const { period, k } = paramsOf(options);
    const n = checkSeries(values);
    const out = outputColumn(n, period - 1);
    emaInto(values, 0, n, period, k, out);
    return out;
  },
  (options?: EmaOptions) => paramsOf(options).period - 1,
);

/**
 * Writes the SMA-seeded EMA of `values[from..n)` into `out` (from index `from + period - 1`).
 * Shared by DEMA, TEMA, MACD and RMA so that all of them use the exact same arithmetic.
 * @internal
 */
export function emaInto(
  values: ArrayLike<number>,
  from: number,
  n: number,
  period: number,
  k: number,
  out: Float64Array,
): void {
  if (n - from < period) return;
  let sum = 0;
  for (let i = from; i < from + period; i++) sum += values[i];
  let prev = sum / period;
  out[from + period - 1] = prev;
  // ema * (1 - k) + x * k keeps one multiply-add on the loop-carried chain (x * k is off it).
  const a = 1 - k;
  for (let i = from + period; i < n; i++) {
    prev = prev * a + values[i] * k;
    out[i] = prev;
  }
}

/** Streaming {@link ema}. */
export class EMA implements Stream<number, number> {
  readonly period: number;
  readonly k: number;
  private readonly a: number;
  private n = 0;
  // The running sum of the seed window while n < period, then the EMA itself.
  private acc = 0;
  private prevAcc = 0;

  constructor(options?: EmaOptions) {
    const { period, k } = paramsOf(options);
    this.period = period;
    this.k = k;
    this.a = 1 - k;
  }

  get value(): number {
    return this.n >= this.period ? this.acc : Number.NaN;
  }

  get isStable(): boolean {
    return this.n >= this.period;
  }

  get count(): number {
    return this.n;
  }

  update(value: number): number {
    // value - value is 0 for finite numbers and NaN for NaN and +-Infinity.
    if (value - value !== 0) checkValue(value);
    const acc = this.acc;
    this.prevAcc = acc;
    const n = ++this.n;
    if (n > this.period) {
      const next = acc * this.a + value * this.k;
      this.acc = next;
      return next;
    }
    return this.seed(value);
  }

  replace(value: number): number {
    checkValue(value);
    checkReplace(this.n);
    this.acc = this.prevAcc;
    if (this.n > this.period) {
      const acc = this.acc;
      this.acc = acc * this.a + value * this.k;
      return this.acc;
    }
    return this.seed(value);
  }

  private seed(value: number): number {
    this.acc += value;
    if (this.n < this.period) return Number.NaN;
    this.acc = this.acc / this.period;
    return this.acc;
  }
}
