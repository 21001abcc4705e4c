import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkReplace, checkSeries, outputColumn } from './internal/validate.js';
import { Window } from './internal/window.js';

/** Options of {@link linRegSlope}. */
export interface LinRegSlopeOptions {
  /** Number of values in the regression window, at least 2. Default 14. */
  period?: number;
}

/** Values between two recomputations of the sums from the window (at least `period`). */
const RESYNC = 1024;

function periodOf(options?: LinRegSlopeOptions): number {
  return checkInt('period', options?.period ?? 14, 2);
}

/**
 * Slope of the least-squares line through the last `period` values, per bar.
 *
 * Formula (TA-Lib `LINEARREG_SLOPE`): `sum((j - c) * y_j) / sum((j - c)^2)` over the window,
 * `j = 0` the oldest value, `c = (period - 1) / 2`, `sum((j - c)^2) = period * (period^2 - 1) / 12`;
 * algebraically TA-Lib's `(period * sum(x y) - sum(x) sum(y)) / (period * sum(x^2) - sum(x)^2)`.
 * Kept in O(1) per value: with `S` the window sum, sliding one value on changes the numerator by
 * `-S + (period + 1) / 2 * oldest + (period - 1) / 2 * newest`. Values enter as `y - K` (K the
 * newest value at the last recompute, which leaves the slope unchanged since the weights sum to
 * 0), and the numerator and `S` are recomputed from the window every `max(period, 1024)` values,
 * so neither the price level nor rounding accumulates.
 * Lookback: `period - 1`.
 */
export const linRegSlope = /* @__PURE__ */ withLookback(
  function linRegSlope(values: ArrayLike<number>, options?: LinRegSlopeOptions): Float64Array {
    const p = periodOf(options);
    const n = checkSeries(values);
    const out = outputColumn(n, p - 1);
    if (n < p) return out;
    const c = (p - 1) / 2;
    const denom = (p * (p * p - 1)) / 12;
    const a = (p + 1) / 2;
    const b = (p - 1) / 2;
    const block = Math.max(p, RESYNC);
    // One block per recompute: the sums are rebuilt at i0, then slid by a straight inner loop.
    for (let i0 = p - 1; i0 < n; i0 += block) {
      const shift = values[i0];
      const start = i0 - p + 1;
      let sum = 0;
      let num = 0;
      for (let j = 0; j < p; j++) {
        const d = values[start + j] - shift;
        sum += d;
        num += (j - c) * d;
      }
      out[i0] = num / denom;
      const end = Math.min(n, i0 + block);
      for (let i = i0 + 1; i < end; i++) {
        const dOld = values[i - p] - shift;
        const dNew = values[i] - shift;
        num += a * dOld + b * dNew - sum;
        sum += dNew - dOld;
        out[i] = num / denom;
      }
    }
    return out;
  },
  (options?: LinRegSlopeOptions) => periodOf(options) - 1,
);

/** Streaming {@link linRegSlope}. */
export class LinRegSlope extends StreamBase<number, number> {
  readonly period: number;
  private readonly window: Window;
  private readonly c: number;
  private readonly denom: number;
  private readonly a: number;
  private readonly b: number;
  private shift = 0;
  private sum = 0;
  private num = 0;
  private due = 0;
  private saved = new Float64Array(4);

  constructor(options?: LinRegSlopeOptions) {
    const p = periodOf(options);
    super(p - 1, Number.NaN);
    this.period = p;
    this.window = new Window(p);
    this.c = (p - 1) / 2;
    this.denom = (p * (p * p - 1)) / 12;
    this.a = (p + 1) / 2;
    this.b = (p - 1) / 2;
  }

  protected override save(): void {
    const s = this.saved;
    s[0] = this.shift;
    s[1] = this.sum;
    s[2] = this.num;
    s[3] = this.due;
  }

  protected override restore(): void {
    this.window.undo();
    const s = this.saved;
    this.shift = s[0];
    this.sum = s[1];
    this.num = s[2];
    this.due = s[3];
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
    const w = this.window;
    const old = w.push(x);
    if (this.n < p) return Number.NaN;
    if (this.due === 0) {
      const shift = x;
      let sum = 0;
      let num = 0;
      for (let j = 0; j < p; j++) {
        const d = w.at(j) - shift;
        sum += d;
        num += (j - this.c) * d;
      }
      this.shift = shift;
      this.sum = sum;
      this.num = num;
      this.due = Math.max(p, RESYNC);
    } else {
      const dOld = old - this.shift;
      const dNew = x - this.shift;
      this.num += this.a * dOld + this.b * dNew - this.sum;
      this.sum += dNew - dOld;
    }
    this.due--;
    return this.num / this.denom;
  }
}
