import { EMA, emaInto } from './ema.js';
import { withLookback } from './internal/define.js';
import { checkInt, checkReplace, checkSeries, checkValue, outputColumn } from './internal/validate.js';
import type { Stream } from './stream.js';

/** Options of {@link tema}. */
export interface TemaOptions {
  /** Period of the three EMAs (`k = 2 / (period + 1)`). Default 20. */
  period?: number;
}

function periodOf(options?: TemaOptions): number {
  return checkInt('period', options?.period ?? 20, 1);
}

/**
 * Triple exponential moving average (Mulloy 1994).
 *
 * Formula (TA-Lib `TEMA`, same operation order): with `e1 = EMA(x)`, `e2 = EMA(e1)`,
 * `e3 = EMA(e2)`, all of `period` and SMA-seeded, `tema = e3 + (3 * e1 - 3 * e2)`.
 * Lookback: `3 * (period - 1)`.
 */
export const tema = withLookback(
  function tema(values: ArrayLike<number>, options?: TemaOptions): Float64Array {
    const period = periodOf(options);
    const n = checkSeries(values);
    const start = 3 * (period - 1);
    const out = outputColumn(n, start);
    if (n <= start) return out;
    const k = 2 / (period + 1);
    const e1 = new Float64Array(n);
    const e2 = new Float64Array(n);
    emaInto(values, 0, n, period, k, e1);
    emaInto(e1, period - 1, n, period, k, e2);
    emaInto(e2, 2 * (period - 1), n, period, k, out);
    for (let i = start; i < n; i++) out[i] += 3 * e1[i] - 3 * e2[i];
    return out;
  },
  (options?: TemaOptions) => 3 * (periodOf(options) - 1),
);

/** Streaming {@link tema}. */
export class TEMA implements Stream<number, number> {
  readonly period: number;
  private readonly e1: EMA;
  private readonly e2: EMA;
  private readonly e3: EMA;
  private out = Number.NaN;

  constructor(options?: TemaOptions) {
    this.period = periodOf(options);
    this.e1 = new EMA({ period: this.period });
    this.e2 = new EMA({ period: this.period });
    this.e3 = new EMA({ period: this.period });
  }

  get value(): number {
    return this.out;
  }

  get isStable(): boolean {
    return this.e3.isStable;
  }

  get count(): number {
    return this.e1.count;
  }

  update(value: number): number {
    checkValue(value);
    const a = this.e1.update(value);
    if (!this.e1.isStable) return this.set(Number.NaN);
    const b = this.e2.update(a);
    if (!this.e2.isStable) return this.set(Number.NaN);
    return this.set(this.combine(a, b, this.e3.update(b)));
  }

  replace(value: number): number {
    checkValue(value);
    checkReplace(this.e1.count);
    const a = this.e1.replace(value);
    if (!this.e1.isStable) return this.set(Number.NaN);
    const b = this.e2.replace(a);
    if (!this.e2.isStable) return this.set(Number.NaN);
    return this.set(this.combine(a, b, this.e3.replace(b)));
  }

  private combine(a: number, b: number, c: number): number {
    return this.e3.isStable ? c + (3 * a - 3 * b) : Number.NaN;
  }

  private set(x: number): number {
    this.out = x;
    return x;
  }
}
