import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkReplace, checkSeries, outputColumn, seriesLength } from './internal/validate.js';
import { WARM_HEAD } from './internal/warm.js';
import { Window } from './internal/window.js';

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
export const roc = /* @__PURE__ */ withLookback(
  function roc(values: ArrayLike<number>, options?: RocOptions): Float64Array {
    const period = periodOf(options);
    const n = seriesLength(values);
    const out = outputColumn(n, period);
    // The kernel checks the values in its own pass; a non-finite one rereads them for the error.
    let bad = 0;
    for (let i = 0; i < n && i < period; i++) bad += values[i] * 0;
    if (period < n) {
      // A short first call, so that V8 has run the whole of `rocInto` with feedback before its
      // loop gets hot (see WARM_HEAD).
      const head = Math.min(n, period + WARM_HEAD);
      bad += rocInto(values, period, head, period, out);
      bad += rocInto(values, head, n, period, out);
    }
    if (bad !== 0) checkSeries(values);
    return out;
  },
  (options?: RocOptions) => periodOf(options),
);

/** The ROC of `[from, to)` into `out`; returns the sum of `x * 0` over the newest values. */
function rocInto(values: ArrayLike<number>, from: number, to: number, period: number, out: Float64Array): number {
  let bad = 0;
  for (let i = from; i < to; i++) {
    const x = values[i];
    const prev = values[i - period];
    bad += x * 0;
    out[i] = prev !== 0 ? (x / prev - 1) * 100 : 0;
  }
  return bad;
}

/** Streaming {@link roc}. */
export class ROC extends StreamBase<number, number> {
  readonly period: number;
  private readonly window: Window;

  constructor(options?: RocOptions) {
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
    return this.n > this.period ? change(value, prev) : Number.NaN;
  }
}
