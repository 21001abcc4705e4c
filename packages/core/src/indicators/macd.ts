import { EMA, emaInto } from './ema.js';
import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkReplace, checkSeries, outputColumn } from './internal/validate.js';

/** Options of {@link macd}. */
export interface MacdOptions {
  /** Period of the fast EMA. Default 12. */
  fast?: number;
  /** Period of the slow EMA. Default 26. Swapped with `fast` when smaller, as TA-Lib does. */
  slow?: number;
  /** Period of the signal EMA of the MACD line. Default 9. */
  signal?: number;
}

/** Output of {@link macd}: three columns aligned with the input. */
export type MacdOutput = {
  /** Fast EMA minus slow EMA. */
  macd: Float64Array;
  /** EMA of the MACD line. */
  signal: Float64Array;
  /** MACD line minus signal line. */
  histogram: Float64Array;
};

/** One streaming MACD value. */
export type MacdValue = {
  macd: number;
  signal: number;
  histogram: number;
};

interface MacdParams {
  fast: number;
  slow: number;
  signal: number;
}

function paramsOf(options?: MacdOptions): MacdParams {
  const a = checkInt('fast', options?.fast ?? 12, 1);
  const b = checkInt('slow', options?.slow ?? 26, 1);
  const signal = checkInt('signal', options?.signal ?? 9, 1);
  return a <= b ? { fast: a, slow: b, signal } : { fast: b, slow: a, signal };
}

function lookbackOf(p: MacdParams): number {
  return p.slow - 1 + p.signal - 1;
}

/**
 * Moving Average Convergence/Divergence (Appel).
 *
 * Formula (TA-Lib `MACD`, exactly): `macd = EMA(x, fast) - EMA(x, slow)`,
 * `signal = EMA(macd, signal)`, `histogram = macd - signal`, every EMA SMA-seeded with
 * `k = 2 / (period + 1)` (see `ema`). As in TA-Lib, both EMAs start at index `slow - 1`: the
 * fast EMA is seeded by the mean of the `fast` values ending there (not of the first `fast`
 * values), and the signal EMA is seeded by the mean of the first `signal` MACD values. All three
 * outputs start together. `fast > slow` is swapped, as TA-Lib does. A signal period of 1 makes
 * the signal line the MACD line itself (TA-Lib misaligns its outputs in that case).
 * Defaults 12, 26, 9. Lookback: `slow - 1 + signal - 1` (33 for the defaults).
 */
export const macd = /* @__PURE__ */ withLookback(
  function macd(values: ArrayLike<number>, options?: MacdOptions): MacdOutput {
    const p = paramsOf(options);
    const n = checkSeries(values);
    const lookback = lookbackOf(p);
    const line = outputColumn(n, lookback);
    const signal = outputColumn(n, lookback);
    const histogram = outputColumn(n, lookback);
    const out = { macd: line, signal, histogram };
    if (n <= lookback) return out;
    const first = p.slow - 1;
    // histogram holds the slow EMA and line the fast EMA until they are combined.
    emaInto(values, 0, n, p.slow, 2 / (p.slow + 1), histogram);
    emaInto(values, p.slow - p.fast, n, p.fast, 2 / (p.fast + 1), line);
    for (let i = first; i < n; i++) line[i] = line[i] - histogram[i];
    emaInto(line, first, n, p.signal, 2 / (p.signal + 1), signal);
    for (let i = lookback; i < n; i++) histogram[i] = line[i] - signal[i];
    line.fill(Number.NaN, first, lookback);
    histogram.fill(Number.NaN, first, lookback);
    return out;
  },
  (options?: MacdOptions) => lookbackOf(paramsOf(options)),
);

/** Streaming {@link macd}. */
export class MACD extends StreamBase<number, MacdValue> {
  readonly fast: number;
  readonly slow: number;
  readonly signal: number;
  private readonly fastEma: EMA;
  private readonly slowEma: EMA;
  private readonly signalEma: EMA;
  private line = Number.NaN;
  private sig = Number.NaN;

  constructor(options?: MacdOptions) {
    const p = paramsOf(options);
    super(lookbackOf(p), { macd: Number.NaN, signal: Number.NaN, histogram: Number.NaN });
    this.fast = p.fast;
    this.slow = p.slow;
    this.signal = p.signal;
    this.fastEma = new EMA({ period: p.fast });
    this.slowEma = new EMA({ period: p.slow });
    this.signalEma = new EMA({ period: p.signal });
  }

  /** The newest MACD line, signal and histogram (NaN before the lookback), a fresh object on each read. */
  override get value(): MacdValue {
    const stable = this.n > this.lookbackCount;
    const line = stable ? this.line : Number.NaN;
    const signal = stable ? this.sig : Number.NaN;
    return { macd: line, signal, histogram: line - signal };
  }

  // `value` is built from the state on each read, so the fresh record of `step` is not kept:
  // unused by the caller, it is never allocated.
  update(value: number): MacdValue {
    checkInput(value);
    this.save();
    this.n++;
    return this.step(value, false);
  }

  replace(value: number): MacdValue {
    checkInput(value);
    checkReplace(this.n);
    this.restore();
    return this.step(value, true);
  }

  protected step(x: number, replacing: boolean): MacdValue {
    const n = this.n;
    const s = this.slowEma.next(x, replacing);
    // The fast EMA only sees the values from index slow - fast on (TA-Lib's alignment).
    if (n > this.slow - this.fast) {
      const f = this.fastEma.next(x, replacing);
      if (n >= this.slow) {
        this.line = f - s;
        this.sig = this.signalEma.next(this.line, replacing);
      }
    }
    const stable = this.n > this.lookbackCount;
    const line = stable ? this.line : Number.NaN;
    const signal = stable ? this.sig : Number.NaN;
    return { macd: line, signal, histogram: line - signal };
  }
}
