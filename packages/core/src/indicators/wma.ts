import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkReplace, checkSeries, outputColumn } from './internal/validate.js';
import { Window } from './internal/window.js';

/** Options of {@link wma}. */
export interface WmaOptions {
  /** Number of values; the newest weighs `period`, the oldest 1. Default 20. */
  period?: number;
}

function periodOf(options?: WmaOptions): number {
  return checkInt('period', options?.period ?? 20, 1);
}

/**
 * Writes the WMA of `values[from..n)` into `out` (from index `from + period - 1`), with TA-Lib's
 * running sums: `sub` is the plain sum of the window and `sum` the weighted one; each step adds
 * `x * period` to `sum`, outputs `sum / (period * (period + 1) / 2)`, then subtracts `sub`.
 * Shared by WMA and HMA so that both use the exact same arithmetic.
 * @internal
 */
export function wmaInto(values: ArrayLike<number>, from: number, n: number, period: number, out: Float64Array): void {
  if (n - from < period) return;
  const divider = (period * (period + 1)) / 2;
  let sub = 0;
  let sum = 0;
  let i = from;
  for (let w = 1; w < period; w++) {
    const x = values[i++];
    sub += x;
    sum += x * w;
  }
  let trailing = 0;
  let t = from;
  for (; i < n; i++) {
    const x = values[i];
    sub += x;
    sub -= trailing;
    sum += x * period;
    trailing = values[t++];
    out[i] = sum / divider;
    sum -= sub;
  }
}

/**
 * Weighted moving average: linearly weighted mean of the last `period` values, the newest
 * weighing `period` and the oldest 1.
 *
 * Formula (TA-Lib `WMA`): `sum(w * x) / (period * (period + 1) / 2)`, kept incrementally as in
 * TA-Lib (a running weighted sum minus the running plain sum each step).
 * Lookback: `period - 1`.
 */
export const wma = /* @__PURE__ */ withLookback(
  function wma(values: ArrayLike<number>, options?: WmaOptions): Float64Array {
    const period = periodOf(options);
    const n = checkSeries(values);
    const out = outputColumn(n, period - 1);
    wmaInto(values, 0, n, period, out);
    return out;
  },
  (options?: WmaOptions) => periodOf(options) - 1,
);

/** Streaming {@link wma}. */
export class WMA extends StreamBase<number, number> {
  readonly period: number;
  private readonly divider: number;
  private readonly window: Window;
  private sub = 0;
  private sum = 0;
  private trailing = 0;
  private pSub = 0;
  private pSum = 0;
  private pTrailing = 0;

  constructor(options?: WmaOptions) {
    const period = periodOf(options);
    super(period - 1, Number.NaN);
    this.period = period;
    this.divider = (period * (period + 1)) / 2;
    this.window = new Window(period);
  }

  protected override save(): void {
    this.pSub = this.sub;
    this.pSum = this.sum;
    this.pTrailing = this.trailing;
  }

  protected override restore(): void {
    this.window.undo();
    this.sub = this.pSub;
    this.sum = this.pSum;
    this.trailing = this.pTrailing;
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

  protected step(x: number): number {
    const p = this.period;
    this.window.push(x);
    if (this.n < p) {
      this.sub += x;
      this.sum += x * this.n;
      return Number.NaN;
    }
    this.sub += x;
    this.sub -= this.trailing;
    this.sum += x * p;
    this.trailing = this.window.at(0);
    const out = this.sum / this.divider;
    this.sum -= this.sub;
    return out;
  }
}
