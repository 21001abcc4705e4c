import type { CandleLike, HLC } from '../types.js';
import { withLookback } from './internal/define.js';
import { HighLowWindow } from './internal/high-low-window.js';
import { rangePositionInto } from './internal/range-scan.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkInt, checkReplace, columnsLength } from './internal/validate.js';
import { Window } from './internal/window.js';

/** Options of {@link stoch}. */
export interface StochOptions {
  /** Candles in the highest-high / lowest-low window of the raw %K. Default 14. */
  kPeriod?: number;
  /** SMA period smoothing the raw %K into %K (1 gives the fast stochastic). Default 3. */
  kSmooth?: number;
  /** SMA period of %D over %K. Default 3. */
  dPeriod?: number;
}

/** Output of {@link stoch}: %K and its signal line %D, aligned with the input. */
export type StochOutput = {
  k: Float64Array;
  d: Float64Array;
};

/** One output row of {@link Stoch}. */
export type StochValue = {
  k: number;
  d: number;
};

interface StochParams {
  kPeriod: number;
  kSmooth: number;
  dPeriod: number;
}

function paramsOf(options?: StochOptions): StochParams {
  return {
    kPeriod: checkInt('kPeriod', options?.kPeriod ?? 14, 1),
    kSmooth: checkInt('kSmooth', options?.kSmooth ?? 3, 1),
    dPeriod: checkInt('dPeriod', options?.dPeriod ?? 3, 1),
  };
}

function lookbackOf(p: StochParams): number {
  return p.kPeriod - 1 + (p.kSmooth - 1) + (p.dPeriod - 1);
}

const FIELDS = ['high', 'low', 'close'] as const;

/**
 * Slow stochastic oscillator (Lane).
 *
 * Formula (Lane; TA-Lib `STOCH` with SMA smoothing): raw `%K = (close - LL) / ((HH - LL) / 100)`
 * over the highest high HH and lowest low LL of the last `kPeriod` candles;
 * `%K = SMA(raw, kSmooth)`; `%D = SMA(%K, dPeriod)`; both columns start at the lookback, as in
 * TA-Lib. A flat window (HH = LL) gives a raw %K of 50, where TA-Lib gives 0. The SMAs are
 * running sums (seeded by the first window, then moved by newest minus dropped); period 1 is
 * the identity.
 * Defaults 14, 3, 3. Lookback: `(kPeriod - 1) + (kSmooth - 1) + (dPeriod - 1)`.
 */
export const stoch = /* @__PURE__ */ withLookback(
  function stoch(candles: HLC, options?: StochOptions): StochOutput {
    const p = paramsOf(options);
    const n = columnsLength(candles, FIELDS);
    const k = new Float64Array(n);
    const d = new Float64Array(n);
    const bad = stochInto(candles.high, candles.low, candles.close, 0, n, p.kPeriod, p.kSmooth, p.dPeriod, k, d);
    // The kernel reads no value of a series shorter than kPeriod: checked here then.
    if (bad !== 0 || n < p.kPeriod) checkColumns(candles, FIELDS);
    return { k, d };
  },
  (options?: StochOptions) => lookbackOf(paramsOf(options)),
);

/**
 * Writes the stochastic of candles `[from, n)` into `k` and `d`, and NaN before its lookback
 * (from index 0). `d` must not alias the inputs; `k` may, as the inputs are read before `k` is
 * written (StochRSI passes its RSI column as high, low, close and k). Shared with StochRSI.
 * Returns the sum of `x * 0` over the input values read (0 when all are finite; none are read
 * when `n < from + kPeriod`).
 * @internal
 */
export function stochInto(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  from: number,
  n: number,
  kPeriod: number,
  kSmooth: number,
  dPeriod: number,
  k: Float64Array,
  d: Float64Array,
): number {
  const rawStart = from + kPeriod - 1;
  const kStart = rawStart + kSmooth - 1;
  const dStart = kStart + dPeriod - 1;
  // The raw %K goes to `d` as scratch, is smoothed into `k`, then `k` is smoothed into `d`.
  const bad = rawStart < n ? rangePositionInto(high, low, close, from, n, kPeriod, d, false) : 0;
  smaInto(d, rawStart, n, kSmooth, k);
  smaInto(k, kStart, n, dPeriod, d);
  // Like TA-Lib, %K is published from the same index as %D.
  k.fill(Number.NaN, 0, Math.min(dStart, n));
  d.fill(Number.NaN, 0, Math.min(dStart, n));
  return bad;
}

function smaInto(src: Float64Array, start: number, n: number, period: number, out: Float64Array): void {
  if (n - start < period) return;
  // Period 1 is the identity, exactly (a running sum would carry rounding residue).
  if (period === 1) {
    out.set(src.subarray(start, n), start);
    return;
  }
  let sum = 0;
  for (let i = start; i < start + period; i++) sum += src[i];
  out[start + period - 1] = sum / period;
  for (let i = start + period; i < n; i++) {
    sum += src[i] - src[i - period];
    out[i] = sum / period;
  }
}

/** The streaming counterpart of `smaInto`, with a one-step undo. */
class MeanWindow {
  private readonly period: number;
  private readonly window: Window;
  private n = 0;
  private sum = 0;
  private pSum = 0;

  constructor(period: number) {
    this.period = period;
    this.window = new Window(period);
  }

  // `value` is built from the state on each read, so the fresh record of `step` is not kept:
  // unused by the caller, it is never allocated.
  update(x: number): number {
    this.pSum = this.sum;
    this.n++;
    return this.step(x);
  }

  replace(x: number): number {
    if (this.period > 1) this.window.undo();
    this.sum = this.pSum;
    return this.step(x);
  }

  private step(x: number): number {
    if (this.period === 1) return x;
    const evicted = this.window.push(x);
    if (this.n <= this.period) {
      this.sum += x;
      return this.n < this.period ? Number.NaN : this.sum / this.period;
    }
    this.sum += x - evicted;
    return this.sum / this.period;
  }
}

/**
 * The streaming stochastic over bare numbers, shared by {@link Stoch} and StochRSI.
 * @internal
 */
export class StochState {
  readonly kPeriod: number;
  readonly kSmooth: number;
  readonly dPeriod: number;
  /** Newest %K (NaN before the lookback). */
  k = Number.NaN;
  /** Newest %D (NaN before the lookback). */
  d = Number.NaN;
  private readonly window: HighLowWindow;
  private readonly kSma: MeanWindow;
  private readonly dSma: MeanWindow;
  private n = 0;

  constructor(kPeriod: number, kSmooth: number, dPeriod: number) {
    this.kPeriod = kPeriod;
    this.kSmooth = kSmooth;
    this.dPeriod = dPeriod;
    this.window = new HighLowWindow(kPeriod);
    this.kSma = new MeanWindow(kSmooth);
    this.dSma = new MeanWindow(dPeriod);
  }

  /** Number of inputs seen. */
  get count(): number {
    return this.n;
  }

  /** Appends one input (already validated). */
  update(high: number, low: number, close: number): void {
    this.n++;
    this.step(high, low, close, false);
  }

  /** Replaces the last input (already validated). */
  replace(high: number, low: number, close: number): void {
    checkReplace(this.n);
    this.window.undo();
    this.step(high, low, close, true);
  }

  private step(high: number, low: number, close: number, replace: boolean): void {
    const w = this.window;
    w.push(high, low);
    if (this.n < this.kPeriod) return;
    const diff = (w.highest - w.lowest) / 100;
    const raw = diff === 0 ? 50 : (close - w.lowest) / diff;
    const k = replace ? this.kSma.replace(raw) : this.kSma.update(raw);
    if (this.n < this.kPeriod + this.kSmooth - 1) return;
    const d = replace ? this.dSma.replace(k) : this.dSma.update(k);
    // Like TA-Lib, %K is published from the same index as %D.
    if (this.n < this.kPeriod + this.kSmooth + this.dPeriod - 2) return;
    this.k = k;
    this.d = d;
  }
}

/** Streaming {@link stoch}. */
export class Stoch extends StreamBase<CandleLike, StochValue> {
  readonly kPeriod: number;
  readonly kSmooth: number;
  readonly dPeriod: number;
  private readonly state: StochState;

  constructor(options?: StochOptions) {
    const p = paramsOf(options);
    super(lookbackOf(p), { k: Number.NaN, d: Number.NaN });
    this.kPeriod = p.kPeriod;
    this.kSmooth = p.kSmooth;
    this.dPeriod = p.dPeriod;
    this.state = new StochState(p.kPeriod, p.kSmooth, p.dPeriod);
  }

  /** The newest %K and %D (NaN before the lookback), a fresh object on each read. */
  override get value(): StochValue {
    return { k: this.state.k, d: this.state.d };
  }

  update(candle: CandleLike): StochValue {
    checkCandle(candle, FIELDS);
    this.save();
    this.n++;
    return this.step(candle, false);
  }

  replace(candle: CandleLike): StochValue {
    checkCandle(candle, FIELDS);
    checkReplace(this.n);
    this.restore();
    return this.step(candle, true);
  }

  protected step(candle: CandleLike, replacing: boolean): StochValue {
    const high = candle.high as number;
    const low = candle.low as number;
    const close = candle.close as number;
    if (replacing) this.state.replace(high, low, close);
    else this.state.update(high, low, close);
    return { k: this.state.k, d: this.state.d };
  }
}
