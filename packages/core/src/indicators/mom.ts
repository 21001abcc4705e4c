import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkReplace, checkSeries, outputColumn } from './internal/validate.js';
import { Window } from './internal/window.js';

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
export const mom = /* @__PURE__ */ withLookback(
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
export class Mom extends StreamBase<number, number> {
  readonly period: number;
  private readonly window: Window;

  constructor(options?: MomOptions) {
    const period = periodOf(options);
    super(period, Number.NaN);
    this.period = period;
    this.window = new Window(period);
  }

  protected override restore(): void {
    this.window.undo();
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
    // The value `period` inputs ago is the one the full window evicts (NaN while filling).
    const prev = this.window.push(value);
    return this.n > this.period ? value - prev : Number.NaN;
  }
}
