import { withLookback } from './internal/define.js';
import { checkInt, checkNumber, checkReplace, checkSeries, checkValue, nanArray } from './internal/validate.js';
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
 * `ema[i] = (x[i] - ema[i-1]) * k + ema[i-1]` with `k = 2 / (period + 1)`.
 * Lookback: `period - 1`.
 */
export const ema = withLookback(
  function ema(values: ArrayLike<number>, options?: EmaOptions): Float64Array {
    const { period, k } = paramsOf(options);
    const n = checkSeries(values);
    const out = nanArray(n);
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
  for (let i = from + period; i < n; i++) {
    prev = (values[i] - prev) * k + prev;
    out[i] = prev;
  }
}

/** Streaming {@link ema}. */
export class EMA implements Stream<number, number> {
  readonly period: number;
  readonly k: number;
  private n = 0;
  private acc = 0;
  private prevAcc = 0;
  private out = Number.NaN;

  constructor(options?: EmaOptions) {
    const { period, k } = paramsOf(options);
    this.period = period;
    this.k = k;
  }

  get value(): number {
    return this.out;
  }

  get isStable(): boolean {
    return this.n >= this.period;
  }

  get count(): number {
    return this.n;
  }

  update(value: number): number {
    if (!Number.isFinite(value)) checkValue(value);
    this.prevAcc = this.acc;
    this.n++;
    this.out = this.step(value);
    return this.out;
  }

  replace(value: number): number {
    checkValue(value);
    checkReplace(this.n);
    this.acc = this.prevAcc;
    this.out = this.step(value);
    return this.out;
  }

  private step(value: number): number {
    const n = this.n;
    const p = this.period;
    if (n > p) {
      // acc holds the previous EMA.
      this.acc = (value - this.acc) * this.k + this.acc;
      return this.acc;
    }
    // acc holds the running sum of the seed window.
    this.acc += value;
    if (n < p) return Number.NaN;
    this.acc = this.acc / p;
    return this.acc;
  }
}
