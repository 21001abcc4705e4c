import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkReplace, checkSeries, outputColumn, seriesLength } from './internal/validate.js';

/** Options of {@link rsi}. */
export interface RsiOptions {
  /** Number of price changes averaged. Default 14. */
  period?: number;
}

function periodOf(options?: RsiOptions): number {
  return checkInt('period', options?.period ?? 14, 1);
}

/** 100 * gain / (gain + loss); 50 when both are exactly zero (a flat window). */
function ratio(gain: number, loss: number): number {
  const total = gain + loss;
  return total === 0 ? 50 : 100 * (gain / total);
}

/**
 * Relative Strength Index with Wilder smoothing.
 *
 * Formula (Wilder 1978; TA-Lib `RSI`): average gain and loss are seeded by the simple mean of
 * the first `period` changes, then smoothed as `avg = avg * (period - 1) / period + change / period`
 * (TA-Lib's recurrence, evaluated with one multiply-add so the loop is not bound by division);
 * `rsi = 100 * avgGain / (avgGain + avgLoss)`. TradingView's `ta.rsi` is the same recurrence.
 * A flat window (no gain and no loss) reads 50, where TA-Lib reads 0 below an absolute 1e-8
 * threshold that also zeroes genuine values on sub-cent prices.
 * Lookback: `period`.
 */
export const rsi = /* @__PURE__ */ withLookback(
  function rsi(values: ArrayLike<number>, options?: RsiOptions): Float64Array {
    const period = periodOf(options);
    const n = seriesLength(values);
    const out = outputColumn(n, period);
    if (n <= period) {
      checkSeries(values);
      return out;
    }
    let bad = 0;
    let gain = 0;
    let loss = 0;
    let prev = values[0];
    bad += prev * 0;
    for (let i = 1; i <= period; i++) {
      const x = values[i];
      bad += x * 0;
      const d = x - prev;
      prev = x;
      if (d < 0) loss -= d;
      else gain += d;
    }
    gain /= period;
    loss /= period;
    out[period] = ratio(gain, loss);
    // A value that is not finite makes `bad` NaN: the validation's own error, for the first such value.
    if (rsiSteady(values, n, period, gain, loss, prev, out) + bad !== 0) checkSeries(values);
    return out;
  },
  (options?: RsiOptions) => periodOf(options),
);

/**
 * The smoothing from bar `period + 1` on, in a function of its own (nothing after its loop, so V8
 * compiles one complete loop). Returns the sum of `x * 0` over the values read: 0 when all are finite.
 */
function rsiSteady(
  values: ArrayLike<number>,
  n: number,
  period: number,
  gain: number,
  loss: number,
  prev: number,
  out: Float64Array,
): number {
  const a = (period - 1) / period;
  const b = 1 / period;
  let bad = 0;
  for (let i = period + 1; i < n; i++) {
    const x = values[i];
    bad += x * 0;
    const d = x - prev;
    prev = x;
    // Without a branch (whether a random walk rose is a coin toss, and a mispredicted branch
    // costs more than the rest of the step): up is the change or 0, down is then up - change,
    // which is -change or 0; both exact.
    const up = d * +(d > 0);
    const down = up - d;
    gain = gain * a + up * b;
    loss = loss * a + down * b;
    const total = gain + loss;
    out[i] = total === 0 ? 50 : 100 * (gain / total);
  }
  return bad;
}

export class RSI extends StreamBase<number, number> {
  readonly period: number;
  private readonly a: number;
  private readonly b: number;
  private gain = 0;
  private loss = 0;
  private last = 0;
  private pGain = 0;
  private pLoss = 0;
  private pLast = 0;

  constructor(options?: RsiOptions) {
    const period = periodOf(options);
    super(period, Number.NaN);
    this.period = period;
    this.a = (period - 1) / period;
    this.b = 1 / period;
  }

  protected override save(): void {
    this.pGain = this.gain;
    this.pLoss = this.loss;
    this.pLast = this.last;
  }

  protected override restore(): void {
    this.gain = this.pGain;
    this.loss = this.pLoss;
    this.last = this.pLast;
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
    const n = this.n;
    const p = this.period;
    const d = x - this.last;
    this.last = x;
    if (n > p + 1) {
      const gain = this.gain * this.a + (d > 0 ? d : 0) * this.b;
      const loss = this.loss * this.a + (d < 0 ? -d : 0) * this.b;
      this.gain = gain;
      this.loss = loss;
      return ratio(gain, loss);
    }
    if (n === 1) return Number.NaN;
    if (d < 0) this.loss -= d;
    else this.gain += d;
    if (n <= p) return Number.NaN;
    this.gain /= p;
    this.loss /= p;
    return ratio(this.gain, this.loss);
  }
}
