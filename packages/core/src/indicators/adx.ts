import type { CandleLike, HLC } from '../types.js';
import { type DmiOptions, DmiState, dmiInto, dmiParams } from './dmi.js';
import { withLookback } from './internal/define.js';
import { StreamBase } from './internal/stream-base.js';
import { checkCandle, checkColumns, checkReplace, columnsLength, outputIntoColumns } from './internal/validate.js';
import type { HLCValues } from './true-range.js';

/** Options of {@link adx}: those of `dmi`, and `out`. */
export interface AdxOptions extends DmiOptions {
  /**
   * An array to write the result into instead of a new one: a `Float64Array` of the input's
   * length that does not share memory with any of its columns (else an `invalid_option` error).
   * It is returned.
   */
  out?: Float64Array;
}

const FIELDS = ['high', 'low', 'close'] as const;

function lookbackOf(options?: AdxOptions): number {
  return 2 * dmiParams(options).period - 1;
}

/**
 * Average Directional Index (Wilder 1978): the Wilder average of the DX of `dmi`.
 *
 * Formula (TA-Lib `ADX`, exactly): the first ADX is the mean of the first `period` DX values
 * (bars `period .. 2 * period - 1`), then `adx = (adx * (period - 1) + dx) / period`.
 * A DX whose DIs sum to exactly 0 counts as 0 (as in TradingView); TA-Lib instead skips the
 * update (keeps the previous ADX) wherever its absolute 1e-8 test on the smoothed true range or
 * on the DI sum fires, which differs only on flat or sub-1e-8 stretches.
 * `convention: 'tradingview'` seeds the DIs as TradingView's DMI script does (see `dmi`), with
 * ADX smoothing equal to the DI length. Defaults: period 14. Lookback: `2 * period - 1`.
 * With `options.out` it writes into the caller's array and allocates nothing, so a caller that
 * recomputes often can reuse one array instead of paying for a fresh 8 MB column (allocated and
 * first touched) per million candles.
 */
export const adx = /* @__PURE__ */ withLookback(function adx(candles: HLC, options?: AdxOptions): Float64Array {
  const params = dmiParams(options);
  const n = columnsLength(candles, FIELDS);
  const out = outputIntoColumns(options?.out, n, 2 * params.period - 1, candles, FIELDS);
  // The kernel checks the values in its own pass; a non-finite one rereads them for the error.
  if (dmiInto(candles, n, params, null, null, null, out) !== 0) checkColumns(candles, FIELDS);
  return out;
}, lookbackOf);

/** Streaming {@link adx}. */
export class ADX extends StreamBase<CandleLike, number> {
  readonly period: number;
  private readonly state: DmiState;

  constructor(options?: AdxOptions) {
    const params = dmiParams(options);
    super(2 * params.period - 1, Number.NaN);
    this.period = params.period;
    this.state = new DmiState(params);
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
    this.state.step(candle as HLCValues);
    return this.state.adx;
  }
}
