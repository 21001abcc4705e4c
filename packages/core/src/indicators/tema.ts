import { EMA, emaInto } from './ema.js';
import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkReplace, checkSeries, outputColumn } from './internal/validate.js';

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
export const tema = /* @__PURE__ */ withLookback(
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
export class TEMA extends StreamBase<number, number> {
  readonly period: number;
  private readonly e1: EMA;
  private readonly e2: EMA;
  private readonly e3: EMA;

  constructor(options?: TemaOptions) {
    const period = periodOf(options);
    super(3 * (period - 1), Number.NaN);
    this.period = period;
    this.e1 = new EMA({ period });
    this.e2 = new EMA({ period });
    this.e3 = new EMA({ period });
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
    const a = this.e1.next(value, replacing);
    if (this.n < this.period) return Number.NaN;
    const b = this.e2.next(a, replacing);
    if (this.n < 2 * this.period - 1) return Number.NaN;
    const c = this.e3.next(b, replacing);
    return this.n > this.lookbackCount ? c + (3 * a - 3 * b) : Number.NaN;
  }
}
