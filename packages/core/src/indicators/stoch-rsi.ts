import { withLookback } from './internal/define.js';
import { checkInput, StreamBase } from './internal/stream-base.js';
import { checkInt, checkReplace, checkSeries } from './internal/validate.js';
import { RSI, rsi } from './rsi.js';
import { StochState, stochInto } from './stoch.js';

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
export const stochRsi = /* @__PURE__ */ withLookback(
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
export class StochRSI extends StreamBase<number, StochRsiValue> {
  readonly rsiPeriod: number;
  readonly stochPeriod: number;
  readonly kSmooth: number;
  readonly dPeriod: number;
  private readonly rsi: RSI;
  private readonly state: StochState;

  constructor(options?: StochRsiOptions) {
    const p = paramsOf(options);
    super(lookbackOf(p), { k: Number.NaN, d: Number.NaN });
    this.rsiPeriod = p.rsiPeriod;
    this.stochPeriod = p.stochPeriod;
    this.kSmooth = p.kSmooth;
    this.dPeriod = p.dPeriod;
    this.rsi = new RSI({ period: p.rsiPeriod });
    this.state = new StochState(p.stochPeriod, p.kSmooth, p.dPeriod);
  }

  /** The newest %K and %D (NaN before the lookback), a fresh object on each read. */
  override get value(): StochRsiValue {
    return { k: this.state.k, d: this.state.d };
  }

  // `value` is built from the state on each read, so the fresh record of `step` is not kept:
  // unused by the caller, it is never allocated.
  update(value: number): StochRsiValue {
    checkInput(value);
    this.save();
    this.n++;
    return this.step(value, false);
  }

  replace(value: number): StochRsiValue {
    checkInput(value);
    checkReplace(this.n);
    this.restore();
    return this.step(value, true);
  }

  protected step(value: number, replacing: boolean): StochRsiValue {
    const r = replacing ? this.rsi.replace(value) : this.rsi.update(value);
    // The RSI is defined past its lookback, `rsiPeriod` inputs.
    if (this.n > this.rsiPeriod) {
      if (replacing) this.state.replace(r, r, r);
      else this.state.update(r, r, r);
    }
    return { k: this.state.k, d: this.state.d };
  }
}
