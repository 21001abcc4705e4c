import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkNumber, checkReplace, checkSeries, outputInto, seriesLength } from './internal/validate.js';

/** Options of {@link ema}. */
export interface EmaOptions {
  /** Number of values; sets the smoothing factor `k = 2 / (period + 1)`. Default 20. */
  period?: number;
  /**
   * Smoothing factor override in (0, 1]. Wilder's RMA is `k = 1 / period` (see `rma`).
   * Default `2 / (period + 1)`.
   */
  k?: number;
  /**
   * An array to write the result into instead of a new one: a `Float64Array` of the input's
   * length that does not share memory with it (else an `invalid_option` error). It is returned.
   */
  out?: Float64Array;
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
 * Lookback: `period - 1`. With `options.out` it writes into the caller's array and allocates
 * nothing (see `sma`).
 */
export const ema = /* @__PURE__ */ withLookback(
  function ema(values: ArrayLike<number>, options?: EmaOptions): Float64Array {
    const { period, k } = paramsOf(options);
    const n = seriesLength(values);
    const out = outputInto(options?.out, n, period - 1, values);
    // The kernel checks the values in its own pass; a short or non-finite input is reread here.
    if (n < period || emaInto(values, 0, n, period, k, out) !== 0) checkSeries(values);
    return out;
  },
  (options?: EmaOptions) => paramsOf(options).period - 1,
);

/**
 * Writes the SMA-seeded EMA of `values[from..n)` into `out` (from index `from + period - 1`).
 * Shared by DEMA, TEMA, MACD and RMA so that all of them use the exact same arithmetic.
 * Returns the sum of `x * 0` over `values[from..n)` (0 when all are finite, else NaN) when
 * `n - from >= period`, else 0 without reading them.
 * @internal
 */
export function emaInto(
  values: ArrayLike<number>,
  from: number,
  n: number,
  period: number,
  k: number,
  out: Float64Array,
): number {
  if (n - from < period) return 0;
  let bad = 0;
  let sum = 0;
  for (let i = from; i < from + period; i++) {
    const x = values[i];
    bad += x * 0;
    sum += x;
  }
  let prev = sum / period;
  out[from + period - 1] = prev;
  // ema * (1 - k) + x * k keeps one multiply-add on the loop-carried chain (x * k is off it).
  const a = 1 - k;
  for (let i = from + period; i < n; i++) {
    const x = values[i];
    bad += x * 0;
    prev = prev * a + x * k;
    out[i] = prev;
  }
  return bad;
}

/** Streaming {@link ema}. */
export class EMA extends StreamBase<number, number> {
  readonly period: number;
  readonly k: number;
  private readonly a: number;
  // The running sum of the seed window while n < period, then the EMA itself.
  private acc = 0;
  private prevAcc = 0;

  constructor(options?: EmaOptions) {
    const { period, k } = paramsOf(options);
    super(period - 1, Number.NaN);
    this.period = period;
    this.k = k;
    this.a = 1 - k;
  }

  protected override save(): void {
    this.prevAcc = this.acc;
  }

  protected override restore(): void {
    this.acc = this.prevAcc;
  }

  /**
   * `update(x)`, or `replace(x)` when `replacing`, for an indicator built on EMAs (DEMA, TEMA, RMA,
   * MACD, Keltner) that has checked `x` already. It leaves `value` alone: the owner reads the
   * returned output. Code that only EMAs run stays monomorphic, so the owner's loop inlines it.
   * @internal
   */
  next(x: number, replacing: boolean): number {
    if (replacing) {
      checkReplace(this.n);
      this.restore();
    } else {
      this.save();
      this.n++;
    }
    return this.step(x);
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

  // Kept small, the seeding apart: TEMA inlines three of it, DEMA and MACD two or three.
  protected step(value: number): number {
    if (this.n > this.period) {
      const next = this.acc * this.a + value * this.k;
      this.acc = next;
      return next;
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
