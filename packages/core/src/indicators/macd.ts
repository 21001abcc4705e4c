import { EMA } from './ema.js';
import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkReplace, checkSeries, outputColumn, seriesLength } from './internal/validate.js';
import { WARM_HEAD } from './internal/warm.js';

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
    const n = seriesLength(values);
    const lookback = lookbackOf(p);
    const line = outputColumn(n, lookback);
    const signal = outputColumn(n, lookback);
    const histogram = outputColumn(n, lookback);
    // The kernel checks the values in its own pass; a non-finite one rereads them for the error.
    if (macdInto(values, n, p, line, signal, histogram) !== 0) checkSeries(values);
    return { macd: line, signal, histogram };
  },
  (options?: MacdOptions) => lookbackOf(paramsOf(options)),
);

/**
 * The three columns from `lookback` on, in one pass: the same recurrences, in the same order, as
 * three SMA-seeded `emaInto` passes (the slow and fast EMAs from `slow - 1`, the signal EMA of
 * their difference), with the line, signal and histogram written once each. Returns the sum of
 * `x * 0` over every value (0 when all are finite).
 */
function macdInto(
  values: ArrayLike<number>,
  n: number,
  p: MacdParams,
  line: Float64Array,
  signal: Float64Array,
  histogram: Float64Array,
): number {
  const { fast, slow } = p;
  const lookback = lookbackOf(p);
  let bad = 0;
  if (n <= lookback) {
    for (let i = 0; i < n; i++) bad += values[i] * 0;
    return bad;
  }
  // The seeds: the mean of the first `slow` values and of the `fast` values ending at `slow - 1`.
  let sumSlow = 0;
  let sumFast = 0;
  for (let i = 0; i < slow; i++) {
    const x = values[i];
    bad += x * 0;
    sumSlow += x;
  }
  for (let i = slow - fast; i < slow; i++) sumFast += values[i];
  const ks = 2 / (slow + 1);
  const as = 1 - ks;
  const kf = 2 / (fast + 1);
  const af = 1 - kf;
  let s = sumSlow / slow;
  let f = sumFast / fast;
  let l = f - s;
  // The signal's seed: the mean of the MACD line from `slow - 1` to `lookback`.
  let sumLine = 0;
  sumLine += l;
  for (let i = slow; i <= lookback; i++) {
    const x = values[i];
    bad += x * 0;
    s = s * as + x * ks;
    f = f * af + x * kf;
    l = f - s;
    sumLine += l;
  }
  const g = sumLine / p.signal;
  line[lookback] = l;
  signal[lookback] = g;
  histogram[lookback] = l - g;
  const state = new Float64Array([s, f, g]);
  // A short first call, so that V8 has run the whole of `macdSteady` with feedback before its
  // loop gets hot (see WARM_HEAD).
  const head = Math.min(n, lookback + 1 + WARM_HEAD);
  bad += macdSteady(values, lookback + 1, head, p, state, line, signal, histogram);
  return bad + macdSteady(values, head, n, p, state, line, signal, histogram);
}

/** {@link macdInto} from `from` to `to`; `state` holds the slow, fast and signal EMAs, in and out. */
function macdSteady(
  values: ArrayLike<number>,
  from: number,
  to: number,
  p: MacdParams,
  state: Float64Array,
  line: Float64Array,
  signal: Float64Array,
  histogram: Float64Array,
): number {
  const ks = 2 / (p.slow + 1);
  const as = 1 - ks;
  const kf = 2 / (p.fast + 1);
  const af = 1 - kf;
  const kg = 2 / (p.signal + 1);
  const ag = 1 - kg;
  let s = state[0];
  let f = state[1];
  let g = state[2];
  let bad = 0;
  // ema * (1 - k) + x * k, as `emaInto`: three independent chains, each one multiply-add long.
  for (let i = from; i < to; i++) {
    const x = values[i];
    bad += x * 0;
    s = s * as + x * ks;
    f = f * af + x * kf;
    const l = f - s;
    g = g * ag + l * kg;
    line[i] = l;
    signal[i] = g;
    histogram[i] = l - g;
  }
  state[0] = s;
  state[1] = f;
  state[2] = g;
  return bad;
}

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
