import { EMA, emaInto } from './ema.js';
import { withLookback } from './internal/define.js';
import { checkInt, checkReplace, checkSeries, checkValue, outputColumn } from './internal/validate.js';
import type { Stream } from './stream.js';

/** Options of {@link dema}. */
export interface DemaOptions {
  /** Period of both EMAs (`k = 2 / (period + 1)`). Default 20. */
  period?: number;
}

function periodOf(options?: DemaOptions): number {
  return checkInt('period', options?.period ?? 20, 1);
}

/**
 * Double exponential moving average (Mulloy 1994).
 *
 * Formula (TA-Lib `DEMA`): `2 * EMA(x) - EMA(EMA(x))`, both EMAs of `period` seeded by their
 * SMA (see `ema`); the second EMA starts on the first defined value of the first.
 * Lookback: `2 * (period - 1)`.
 */
export const dema = withLookback(
  function dema(values: ArrayLike<number>, options?: DemaOptions): Float64Array {
    const period = periodOf(options);
    const n = checkSeries(values);
    const start = 2 * (period - 1);
    const out = outputColumn(n, start);
    if (n <= start) return out;
    const k = 2 / (period + 1);
    const e1 = new Float64Array(n);
    emaInto(values, 0, n, period, k, e1);
    emaInto(e1, period - 1, n, period, k, out);
    for (let i = start; i < n; i++) out[i] = 2 * e1[i] - out[i];
    return out;
  },
  (options?: DemaOptions) => 2 * (periodOf(options) - 1),
);

/** Streaming {@link dema}. */
export class DEMA implements Stream<number, number> {
  readonly period: number;
  private readonly e1: EMA;
  private readonly e2: EMA;
  private out = Number.NaN;

  constructor(options?: DemaOptions) {
    this.period = periodOf(options);
    this.e1 = new EMA({ period: this.period });
    this.e2 = new EMA({ period: this.period });
  }

  get value(): number {
    return this.out;
  }

  get isStable(): boolean {
    return this.e2.isStable;
  }

  get count(): number {
    return this.e1.count;
  }

  update(value: number): number {
    checkValue(value);
    const a = this.e1.update(value);
    this.out = this.e1.isStable ? this.combine(a, this.e2.update(a)) : Number.NaN;
    return this.out;
  }

  replace(value: number): number {
    checkValue(value);
    checkReplace(this.e1.count);
    const a = this.e1.replace(value);
    this.out = this.e1.isStable ? this.combine(a, this.e2.replace(a)) : Number.NaN;
    return this.out;
  }

  private combine(a: number, b: number): number {
    return this.e2.isStable ? 2 * a - b : Number.NaN;
  }
}
