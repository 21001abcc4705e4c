import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkNumber, checkReplace, checkSeries, outputColumn } from './internal/validate.js';
import { Window } from './internal/window.js';

/** Options of {@link stdDev}. */
export interface StdDevOptions {
  /** Number of values in the window. Default 20. */
  period?: number;
  /** Multiplier of the standard deviation, in 0..1e6. Default 1. */
  nbDev?: number;
}

function paramsOf(options?: StdDevOptions): { period: number; nbDev: number } {
  const period = checkInt('period', options?.period ?? 20, 1);
  const nbDev = checkNumber('nbDev', options?.nbDev ?? 1, 0, 1_000_000);
  return { period, nbDev };
}

/** A resync happens once the rounding budget exceeds this multiple of M2 (about 2e-13 relative). */
const BUDGET = 1024;

/**
 * Writes the population standard deviation (nbDev 1) of each window of `period` values of
 * `values[0..n)` into `out`, from index `period - 1`; earlier entries are left untouched.
 * Shared by `stdDev` and Bollinger Bands so that both use the exact same arithmetic.
 *
 * The variance is kept accurate to about 1e-13 relative at every position, where TA-Lib's
 * running `E[x^2] - E[x]^2` cancels (about 1e-9 relative near price 100, far worse when the
 * spread is small against the price), and a window of identical values reads exactly 0:
 * - the sum of squared deviations M2 is kept around a shift `K`, the newest value at the last
 *   recompute, so deviations `x - K` are exact for prices within a factor 2 of it. At index
 *   `period - 1`, and whenever the rounding budget runs out, it is recomputed over the window by
 *   the corrected two-pass formula: `d = x - K`, `mu = sum(d) / period` (the mean is `K + mu`),
 *   `M2 = sum(d^2) - sum(d) * mu`, clamped at 0 (exactly 0 on a flat window);
 * - in between it slides by Welford's update for one value in and one out:
 *   `mu' = mu + (x - old) / period`, `M2 += (x - old) * ((x - K) - mu' + ((old - K) - mu))`.
 *   The budget starts at M2 and adds M2 after each step (what rounding can have cost); once it
 *   exceeds `1024 * M2` (or M2 < 0) the window is recomputed, so a window whose variance collapses
 *   does not inherit the rounding of a wider one. On real prices that is one recompute per about
 *   10 (period 3) to 250 (period 20) values.
 * - a window of 2 reads `|x1 - x0| / 2` directly.
 *
 * Output: `sqrt(M2 / period)`. O(n) amortised.
 * @internal
 */
export function windowStdDevInto(values: ArrayLike<number>, n: number, period: number, out: Float64Array): void {
  const p = period;
  if (n < p) return;
  if (p === 2) {
    for (let i = 1; i < n; i++) out[i] = Math.abs(values[i] - values[i - 1]) / 2;
    return;
  }
  const inv = 1 / p;
  // Each pass of the outer loop recomputes at index i; the inner loop slides until the budget
  // runs out (one straight loop per block keeps the hot path simple for the JIT).
  let i = p - 1;
  while (i < n) {
    const shift = values[i];
    let sd = 0;
    let ss = 0;
    for (let j = i - p + 1; j <= i; j++) {
      const d = values[j] - shift;
      sd += d;
      ss += d * d;
    }
    let mu = sd / p;
    let m2 = ss - sd * mu;
    if (m2 < 0) m2 = 0;
    let budget = m2;
    out[i] = Math.sqrt(m2 * inv);
    for (i++; i < n; i++) {
      const x = values[i];
      const old = values[i - p];
      const delta = x - old;
      const next = mu + delta * inv;
      m2 += delta * (x - shift - next + (old - shift - mu));
      mu = next;
      budget += m2;
      if (!(budget <= m2 * BUDGET)) break;
      out[i] = Math.sqrt(m2 * inv);
    }
  }
}

/**
 * Standard deviation: the population standard deviation of the last `period` values, times
 * `nbDev`.
 *
 * Formula (TA-Lib `STDDEV`): `sqrt(sum((x - mean)^2) / period) * nbDev`, the variance computed
 * exactly (see `windowStdDevInto`) where TA-Lib uses `E[x^2] - E[x]^2`; TA-Lib also reads 0
 * whenever the variance is below its absolute 1e-8 threshold (a standard deviation below 1e-4),
 * where this reads the true value, and exactly 0 only on a window of identical values.
 * Defaults: period 20, nbDev 1. Lookback: `period - 1`.
 */
export const stdDev = /* @__PURE__ */ withLookback(
  function stdDev(values: ArrayLike<number>, options?: StdDevOptions): Float64Array {
    const { period, nbDev } = paramsOf(options);
    const n = checkSeries(values);
    const out = outputColumn(n, period - 1);
    windowStdDevInto(values, n, period, out);
    if (nbDev !== 1) for (let i = period - 1; i < n; i++) out[i] = out[i] * nbDev;
    return out;
  },
  (options?: StdDevOptions) => paramsOf(options).period - 1,
);

/** Streaming {@link stdDev}. */
export class StdDev extends StreamBase<number, number> {
  readonly period: number;
  readonly nbDev: number;
  private readonly window: Window;
  private readonly inv: number;
  private shift = 0;
  private mu = 0;
  private m2 = 0;
  private budget = 0;
  private saved = new Float64Array(4);

  constructor(options?: StdDevOptions) {
    const { period, nbDev } = paramsOf(options);
    super(period - 1, Number.NaN);
    this.period = period;
    this.nbDev = nbDev;
    this.window = new Window(period);
    this.inv = 1 / period;
  }

  protected override save(): void {
    const s = this.saved;
    s[0] = this.shift;
    s[1] = this.mu;
    s[2] = this.m2;
    s[3] = this.budget;
  }

  protected override restore(): void {
    this.window.undo();
    const s = this.saved;
    this.shift = s[0];
    this.mu = s[1];
    this.m2 = s[2];
    this.budget = s[3];
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
    const old = this.window.push(x);
    if (this.n < p) return Number.NaN;
    if (p === 2) return (Math.abs(x - this.window.at(0)) / 2) * this.nbDev;
    let resync = this.n === p;
    if (!resync) {
      const shift = this.shift;
      const mu = this.mu;
      const delta = x - old;
      const next = mu + delta * this.inv;
      const m2 = this.m2 + delta * (x - shift - next + (old - shift - mu));
      this.m2 = m2;
      this.mu = next;
      this.budget += m2;
      resync = !(this.budget <= m2 * BUDGET);
    }
    if (resync) this.resync(x);
    return Math.sqrt(this.m2 * this.inv) * this.nbDev;
  }

  /** The corrected two-pass over the window around its newest value, as in `windowStdDevInto`. */
  private resync(shift: number): void {
    const p = this.period;
    const w = this.window;
    let sd = 0;
    let ss = 0;
    for (let j = 0; j < p; j++) {
      const d = w.at(j) - shift;
      sd += d;
      ss += d * d;
    }
    const mu = sd / p;
    let m2 = ss - sd * mu;
    if (m2 < 0) m2 = 0;
    this.shift = shift;
    this.mu = mu;
    this.m2 = m2;
    this.budget = m2;
  }
}
