import { withLookback } from './internal/define.js';
import { checkInt, checkReplace, checkSeries, checkValue, outputColumn } from './internal/validate.js';
import { Window } from './internal/window.js';
import type { Stream } from './stream.js';

/** Options of {@link roc}. */
export interface RocOptions {
  /** Number of values back to the reference value. Default 10. */
  period?: number;
}

function periodOf(options?: RocOptions): number {
  return checkInt('period', options?.period ?? 10, 1);
}

/** Percent change from `prev` to `x`; 0 when `prev` is 0, as in TA-Lib. */
function change(x: number, prev: number): number {
  return prev !== 0 ? (x / prev - 1) * 100 : 0;
}

/**
 * Rate of change in percent.
 *
 * Formula (TA-Lib `ROC`): `roc = ((x / x[period ago]) - 1) * 100`. A reference value of 0 (not a
 * price, but possible in synthetic or spread series) gives 0, as in TA-Lib, rather than an
 * infinity. Default period 10. Lookback: `period`.
 */
export const roc = withLookback(
  function roc(values: ArrayLike<number>, options?: RocOptions): Float64Array {
    const period = periodOf(options);
    const n = checkSeries(values);
    const out = outputColumn(n, period);
    for (let i = period; i < n; i++) {
      const prev = values[i - period];
      out[i] = prev !== 0 ? (values[i] / prev - 1) * 100 : 0;
    }
    return out;
  },
  (options?: RocOptions) => periodOf(options),
);

/** Streaming {@link roc}. */
export class ROC implements Stream<number, number> {
  readonly period: number;
  private readonly window: Window;
  private n = 0;
  private out = Number.NaN;

  constructor(options?: RocOptions) {
    this.period = periodOf(options);
    this.window = new Window(this.period);
  }

  get value(): number {
    return this.out;
  }

  get isStable(): boolean {
    return this.n > this.period;
  }

  get count(): number {
    return this.n;
  }

  update(value: number): number {
    checkValue(value);
    this.n++;
    this.out = this.step(value);
    return this.out;
  }

  replace(value: number): number {
    checkValue(value);
    checkReplace(this.n);
    this.window.undo();
    this.out = this.step(value);
    return this.out;
  }

  private step(value: number): number {
    // The value `period` inputs ago is the one the full window evicts (NaN while filling).
    const prev = this.window.push(value);
    return this.n > this.period ? change(value, prev) : Number.NaN;
  }
}
