import { withLookback } from './internal/define.js';
import { checkInt, checkReplace, checkSeries, checkValue } from './internal/validate.js';
import { RSI, rsi } from './rsi.js';
import { StochState, stochInto } from './stoch.js';
import type { Stream } from './stream.js';

/** Options of {@link stochRsi}. */
export interface StochRsiOptions {
  /** Wilder RSI period. Default 14. */
  rsiPeriod?: number;
  /** Window of the highest / lowest RSI. Default 14. */
  stochPeriod?: number;
  /** SMA period smoothing the raw stochastic into %K (1: TA-Lib's fast %K). Default 3. */
  kSmooth?: number;
  /** SMA period of %D over %K. Default 3. */
  dPeriod?: number;
}

/** Output of {@link stochRsi}: %K and %D, aligned with the input. */
export type StochRsiOutput = {
  k: Float64Array;
  d: Float64Array;
};

/** One output row of {@link StochRSI}. */
export type StochRsiValue = {
  k: number;
  d: number;
};

interface StochRsiParams {
  rsiPeriod: number;
  stochPeriod: number;
  kSmooth: number;
  dPeriod: number;
}

function paramsOf(options?: StochRsiOptions): StochRsiParams {
  return {
    rsiPeriod: checkInt('rsiPeriod', options?.rsiPeriod ?? 14, 1),
    stochPeriod: checkInt('stochPeriod', options?.stochPeriod ?? 14, 1),
    kSmooth: checkInt('kSmooth', options?.kSmooth ?? 3, 1),
    dPeriod: checkInt('dPeriod', options?.dPeriod ?? 3, 1),
  };
}

function lookbackOf(p: StochRsiParams): number {
  return p.rsiPeriod + (p.stochPeriod - 1) + (p.kSmooth - 1) + (p.dPeriod - 1);
}

/**
 * Stochastic RSI (Chande and Kroll), as TradingView's "Stoch RSI": the stochastic oscillator
 * of the RSI series.
 *
 * Formula: `r = RSI(values, rsiPeriod)` (Wilder, computed by `rsi`);
 * raw `= (r - min r) / ((max r - min r) / 100)` over the last `stochPeriod` RSI values;
 * `%K = SMA(raw, kSmooth)`; `%D = SMA(%K, dPeriod)`, both columns starting at the lookback.
 * It equals TA-Lib `STOCH` run on the RSI as high, low and close (the arithmetic of `stoch`);
 * with `kSmooth = 1` it is TA-Lib `STOCHRSI` (fastK, fastD with SMA). A flat RSI window gives a
 * raw value of 50, where TA-Lib gives 0 and TradingView na (TA-Lib also zeroes the RSI itself
 * below its 1e-8 test). While prices stay flat the RSI is constant in exact arithmetic but
 * jitters by a few ulps, and the stochastic of that jitter can land anywhere in 0..100, here as
 * in TA-Lib and TradingView. Defaults 14, 14, 3, 3.
 * Lookback: `rsiPeriod + (stochPeriod - 1) + (kSmooth - 1) + (dPeriod - 1)`.
 */
export const stochRsi = withLookback(
  function stochRsi(values: ArrayLike<number>, options?: StochRsiOptions): StochRsiOutput {
    const p = paramsOf(options);
    const n = checkSeries(values);
    // The RSI column becomes %K once the raw stochastic (kept in d) has been read from it.
    const k = rsi(values, { period: p.rsiPeriod });
    const d = new Float64Array(n);
    stochInto(k, k, k, p.rsiPeriod, n, p.stochPeriod, p.kSmooth, p.dPeriod, k, d);
    return { k, d };
  },
  (options?: StochRsiOptions) => lookbackOf(paramsOf(options)),
);

/** Streaming {@link stochRsi}. */
export class StochRSI implements Stream<number, StochRsiValue> {
  readonly rsiPeriod: number;
  readonly stochPeriod: number;
  readonly kSmooth: number;
  readonly dPeriod: number;
  private readonly rsi: RSI;
  private readonly state: StochState;
  private readonly lookback: number;

  constructor(options?: StochRsiOptions) {
    const p = paramsOf(options);
    this.rsiPeriod = p.rsiPeriod;
    this.stochPeriod = p.stochPeriod;
    this.kSmooth = p.kSmooth;
    this.dPeriod = p.dPeriod;
    this.lookback = lookbackOf(p);
    this.rsi = new RSI({ period: p.rsiPeriod });
    this.state = new StochState(p.stochPeriod, p.kSmooth, p.dPeriod);
  }

  get value(): StochRsiValue {
    return { k: this.state.k, d: this.state.d };
  }

  get isStable(): boolean {
    return this.rsi.count > this.lookback;
  }

  get count(): number {
    return this.rsi.count;
  }

  update(value: number): StochRsiValue {
    checkValue(value);
    const r = this.rsi.update(value);
    if (this.rsi.isStable) this.state.update(r, r, r);
    return this.value;
  }

  replace(value: number): StochRsiValue {
    checkValue(value);
    checkReplace(this.rsi.count);
    const r = this.rsi.replace(value);
    if (this.rsi.isStable) this.state.replace(r, r, r);
    return this.value;
  }
}
