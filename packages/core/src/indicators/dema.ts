import { EMA, emaInto } from './ema.js';
import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkReplace, checkSeries, outputColumn } from './internal/validate.js';

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
export const dema = /* @__PURE__ */ withLookback(
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
export class DEMA extends StreamBase<number, number> {
  readonly period: number;
  private readonly e1: EMA;
  private readonly e2: EMA;

  constructor(options?: DemaOptions) {
    const period = periodOf(options);
    super(2 * (period - 1), Number.NaN);
    this.period = period;
    this.e1 = new EMA({ period });
    this.e2 = new EMA({ period });
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
    return this.n > this.lookbackCount ? 2 * a - b : Number.NaN;
  }
}
