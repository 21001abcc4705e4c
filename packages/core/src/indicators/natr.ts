import type { CandleLike, HLC } from '../types.js';
import { type ATR, type AtrOptions, AtrState, atrInto, atrLookback, atrParams } from './atr.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkReplace, outputColumn } from './internal/validate.js';
import type { HLCValues } from './true-range.js';

/** Options of {@link natr}: those of `atr`. */
export type NatrOptions = AtrOptions;

const FIELDS = ['high', 'low', 'close'] as const;

/** 100 * atr / close; 0 when the close is exactly 0. */
function normalize(atr: number, close: number): number {
  return close === 0 ? 0 : (atr / close) * 100;
}

/**
 * Normalized Average True Range: the ATR as a percentage of the close, `atr / close * 100`.
 *
 * Formula (TA-Lib `NATR`, exactly): the {@link atr} (same options and conventions, default
 * TA-Lib Wilder ATR) divided by the bar's close, times 100. A close of exactly 0 reads 0, as in
 * TA-Lib, which however reads 0 for any |close| below its absolute 1e-8 threshold, where this
 * reads the true value. Defaults: period 14. Lookback: that of `atr` (`period` by default).
 */
export const natr = /* @__PURE__ */ withLookback(
  function natr(candles: HLC, options?: NatrOptions): Float64Array {
    const params = atrParams(options);
    const n = checkColumns(candles, FIELDS);
    const start = atrLookback(params);
    const out = outputColumn(n, start);
    atrInto(candles, n, params, out);
    const close = candles.close;
    for (let i = start; i < n; i++) out[i] = normalize(out[i], close[i]);
    return out;
  },
  (options?: NatrOptions) => atrLookback(atrParams(options)),
);

/** Streaming {@link natr}: a streaming {@link ATR} normalized by each candle's close. */
export class NATR extends StreamBase<CandleLike, number> {
  private readonly state: AtrState;

  constructor(options?: NatrOptions) {
    const params = atrParams(options);
    super(atrLookback(params), Number.NaN);
    this.state = new AtrState(params);
  }

  /** Number of true ranges averaged. */
  get period(): number {
    return this.state.period;
  }

  /** Inputs consumed before the first value (as {@link natr}'s lookback). */
  get lookback(): number {
    return this.state.lookback;
  }

  protected override save(): void {
    this.state.save();
  }

  protected override restore(): void {
    this.state.restore();
  }

  update(candle: CandleLike): number {
    checkCandle(candle, FIELDS);
    this.save();
    this.n++;
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  replace(candle: CandleLike): number {
    checkCandle(candle, FIELDS);
    checkReplace(this.n);
    this.restore();
    const out = this.step(candle);
    this.out = out;
    return out;
  }

  protected step(candle: CandleLike): number {
    this.state.n = this.n;
    const atr = this.state.step(candle as HLCValues);
    return this.n > this.lookbackCount ? normalize(atr, candle.close as number) : Number.NaN;
  }
}
