import type { CandleLike, HLC } from '../types.js';
import { ATR, type AtrOptions, atrInto, atrLookback, atrParams } from './atr.js';
import { withLookback } from './internal/define.js';
import { checkColumns, outputColumn } from './internal/validate.js';
import type { Stream } from './stream.js';

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
export const natr = withLookback(
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
export class NATR implements Stream<CandleLike, number> {
  private readonly atr: ATR;
  private out = Number.NaN;

  constructor(options?: NatrOptions) {
    this.atr = new ATR(options);
  }

  get period(): number {
    return this.atr.period;
  }

  get lookback(): number {
    return this.atr.lookback;
  }

  get value(): number {
    return this.out;
  }

  get isStable(): boolean {
    return this.atr.isStable;
  }

  get count(): number {
    return this.atr.count;
  }

  update(candle: CandleLike): number {
    this.out = this.normalized(this.atr.update(candle), candle);
    return this.out;
  }

  replace(candle: CandleLike): number {
    this.out = this.normalized(this.atr.replace(candle), candle);
    return this.out;
  }

  private normalized(atr: number, candle: CandleLike): number {
    return this.atr.isStable ? normalize(atr, candle.close as number) : Number.NaN;
  }
}
