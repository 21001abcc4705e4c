import { withLookback } from './internal/define.js';
import { checkInt, checkReplace, checkSeries, checkValue, outputColumn } from './internal/validate.js';
import { Window } from './internal/window.js';
import type { Stream } from './stream.js';

/** Options of {@link mom}. */
export interface MomOptions {
  /** Number of values back to the reference value. Default 10. */
  period?: number;
}

function periodOf(options?: MomOptions): number {
  return checkInt('period', options?.period ?? 10, 1);
}

/**
 * Momentum: the change over `period` values.
 *
 * Formula (TA-Lib `MOM`): `mom = x - x[period ago]`. Default period 10. Lookback: `period`.
 */
export const mom = withLookback(
  function mom(values: ArrayLike<number>, options?: MomOptions): Float64Array {
    const period = periodOf(options);
    const n = checkSeries(values);
    const out = outputColumn(n, period);
    for (let i = period; i < n; i++) out[i] = values[i] - values[i - period];
    return out;
  },
  (options?: MomOptions) => periodOf(options),
);

/** Streaming {@link mom}. */
export class Mom implements Stream<number, number> {
  readonly period: number;
  private readonly window: Window;
  private n = 0;
  private out = Number.NaN;

  constructor(options?: MomOptions) {
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
    return this.n > this.period ? value - prev : Number.NaN;
  }
}
